"""The per-run evidence a published campaign folder holds, so that scripts/neural/rescore.py can
rebuild every table from the committed files alone (docs/neural.md#evidence). Stdlib only.

    write_key(data_dir, dest / "keys" / "raven.tsv.gz")      # the test split's answer key
    write_answers(predictions_jsonl, key_path, dest / "runs" / name / "answers.gz")
    write_run_record(out, run, plan, dest / "runs" / name / "run.json", answers_device)

The key is read from the npz files themselves (their `target` member), so it is the data's, not a
model's; the answers come from `rave eval --predictions` (or reference_train.py's predictions).
"""
from __future__ import annotations

import ast
import collections
import gzip
import hashlib
import json
import re
import struct
import zipfile
from pathlib import Path

CONFIGS = ["center_single", "distribute_four", "distribute_nine", "left_center_single_right_center_single",
           "up_center_single_down_center_single", "in_center_single_out_center_single",
           "in_distribute_four_out_center_single"]
_NUMBER = re.compile(r"RAVEN_(\d+)_test\.npz$")


def npz_target(path: Path) -> int:
    """The `target` member of an npz (a 0-d integer .npy), read with zipfile alone."""
    with zipfile.ZipFile(path) as z:
        data = z.read("target.npy")
    if data[:6] != b"\x93NUMPY":
        raise ValueError(f"{path}: target.npy is not a .npy")
    major = data[6]
    header_len = struct.unpack("<H" if major == 1 else "<I", data[8:10] if major == 1 else data[8:12])[0]
    start = (10 if major == 1 else 12) + header_len
    header = ast.literal_eval(data[start - header_len:start].decode("latin1"))
    kind, size = header["descr"][1:], int(header["descr"][2:])
    fmt = {("i", 8): "q", ("i", 4): "i", ("u", 1): "B", ("i", 1): "b", ("u", 8): "Q", ("i", 2): "h"}[(kind[0], size)]
    order = "<" if header["descr"][0] in "<|" else ">"
    return struct.unpack(order + fmt, data[start:start + size])[0]


def test_files(data_dir: Path) -> list[tuple[str, str, Path]]:
    """(id, configuration, path) of the test split, configurations in rave's order, by problem number."""
    out = []
    for config in CONFIGS:
        folder = Path(data_dir) / config
        if not folder.is_dir():
            continue
        numbered = sorted((int(m.group(1)), p) for p in folder.iterdir() if (m := _NUMBER.search(p.name)))
        out += [(f"{config}/{p.stem}", config, p) for _, p in numbered]
    return out


def key_hash(ids: list[str]) -> str:
    return hashlib.sha256("\n".join(ids).encode()).hexdigest()


def write_key(data_dir: Path, path: Path) -> None:
    lines = [f"{i}\t{c}\t{npz_target(p)}" for i, c, p in test_files(data_dir)]
    if not lines:
        raise ValueError(f"{data_dir}: no test split")
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(path, "wb", mtime=0) as f:  # the same bytes for the same key
        f.write(("\n".join(lines) + "\n").encode())


def read_key_ids(path: Path) -> list[str]:
    with gzip.open(path, "rt") as f:
        return [line.split("\t")[0] for line in f if line.strip()]


def read_answers_text(path: Path, key: Path) -> str:
    """An answers.gz file's body, one character per problem of `key` ('-': none), after checking that
    its header names that key."""
    ids = read_key_ids(key)
    with gzip.open(path, "rt") as f:
        header, body = f.readline(), f.readline().rstrip("\n")
    if not header.rstrip().endswith(f"key {key_hash(ids)}") or len(body) != len(ids):
        raise ValueError(f"{path}: not the answers to the key {key} ({len(body)} answers, {len(ids)} problems)")
    return body


def normalised_id(raw: str) -> str:
    """`center_single/RAVEN_8_test` from an id or a path (with or without .npz / .xml)."""
    p = Path(raw)
    return f"{p.parent.name}/{p.name.removesuffix('.npz').removesuffix('.xml')}"


def write_answers(predictions: Path, key: Path, path: Path) -> None:
    """One character per key problem ('-' where the predictions have no answer), after a header."""
    ids = read_key_ids(key)
    answers: dict[str, str] = {}
    for line in predictions.read_text().splitlines():
        if line.strip():
            record = json.loads(line)
            answer = record.get("answer")
            answers[normalised_id(record.get("id") or record["file"])] = "-" if answer is None else str(int(answer))
    body = "".join(answers.get(i, "-") for i in ids)
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(f"# rave answers of {predictions.name}: key {key_hash(ids)}\n{body}\n".encode())


def write_run_record(metrics: list[dict], record: dict, path: Path, gpu_names: list[str]) -> None:
    """run.json: `record` plus the epochs each device trained (from metrics.jsonl's `device`)."""
    devices: collections.Counter = collections.Counter()
    for m in metrics:
        device = m.get("device") or "unrecorded"
        if device.startswith("cuda") and gpu_names and "(" not in device:
            device += f" ({'/'.join(sorted(set(gpu_names)))})"
        devices[device] += 1
    record = dict(record, train_devices=dict(devices), epochs=len(metrics),
                  best_epoch=max(metrics, key=lambda m: (m["val_accuracy"], -m["epoch"]))["epoch"] if metrics else None)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n")
