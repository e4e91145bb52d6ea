#!/usr/bin/env python3
"""Every published neural table, rebuilt from the committed evidence alone (docs/neural.md#evidence).

    scripts/neural/rescore.py DEST...            # write DEST/<table>.md from DEST's evidence
    scripts/neural/rescore.py --check DEST...    # exit 1 unless each DEST/<table>.md is what it rebuilds

A published folder (`campaign.py publish DEST`) holds, besides the tables:
- keys/<data>.tsv.gz: the test split's answer key, one line per problem in file order:
  `id<TAB>configuration<TAB>target`;
- runs/<run>/answers.gz: the run's best-validation checkpoint's answer to every problem of its data's
  key, one character each in key order ('0'-'7'; '-' for none), after a `#` header line naming the
  key's SHA-256; runs/<run>/run.json: what trained and evaluated it (devices, epochs, best epoch);
- tables.json: each table's title, data, rows (label, runs), paired effects and the paper's rows.

Accuracy is counted per problem (Avg pools all problems; a column is one configuration). A row of one
run carries the Wilson 95 % interval, a row of several runs (seeds) the mean and the 95 % t interval
over them, clipped to 0..100, as `rave score --seeds`; a paired effect is the per-seed difference of
the two rows' Avg with its mean and 95 % t interval: the k-th run a row lists pairs with the other
row's k-th (rows list their seeds in one order), over the places where both are published. Needs
Python 3.9+ and numpy.
"""
from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import math
import sys
from pathlib import Path

import numpy as np

CONFIGS = ["center_single", "distribute_four", "distribute_nine", "left_center_single_right_center_single",
           "up_center_single_down_center_single", "in_center_single_out_center_single",
           "in_distribute_four_out_center_single"]
COLUMNS = ["Avg", "Center", "2x2Grid", "3x3Grid", "L-R", "U-D", "O-IC", "O-IG"]
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}


class EvidenceError(Exception):
    pass


def read_key(path: Path) -> tuple[list[str], np.ndarray, np.ndarray, str]:
    """ids, configuration index and target per problem, and the SHA-256 of the ids in order."""
    ids, configs, targets = [], [], []
    with gzip.open(path, "rt") as f:
        for number, line in enumerate(f, 1):
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 3 or parts[1] not in CONFIGS or parts[2] not in "01234567" or len(parts[2]) != 1:
                raise EvidenceError(f"{path}:{number}: not `id<TAB>configuration<TAB>target`")
            ids.append(parts[0])
            configs.append(CONFIGS.index(parts[1]))
            targets.append(int(parts[2]))
    return ids, np.array(configs), np.array(targets), key_hash(ids)


def key_hash(ids: list[str]) -> str:
    return hashlib.sha256("\n".join(ids).encode()).hexdigest()


def read_answers(path: Path, key_sha: str, n: int) -> np.ndarray:
    """The answers (-1 for none) of a run, checked against the key they were written for."""
    with gzip.open(path, "rt") as f:
        header = f.readline().strip()
        body = f.read().strip()
    if f"key {key_sha}" not in header:
        raise EvidenceError(f"{path}: written for another answer key than this folder's ({header})")
    if len(body) != n or any(c not in "01234567-" for c in body):
        raise EvidenceError(f"{path}: {len(body)} answers for a key of {n} problems")
    return np.array([-1 if c == "-" else int(c) for c in body])


def run_accuracy(answers: np.ndarray, configs: np.ndarray, targets: np.ndarray) -> tuple[list[float], list[int]]:
    """Accuracy (%) Avg then per configuration, and the problems of each."""
    right = answers == targets
    acc, counts = [100.0 * right.mean()], [len(right)]
    for c in range(len(CONFIGS)):
        mask = configs == c
        acc.append(100.0 * right[mask].mean() if mask.any() else float("nan"))
        counts.append(int(mask.sum()))
    return acc, counts


def wilson(p: float, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    p /= 100
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return 100 * (centre - half), 100 * (centre + half)


def t_interval(values: list[float]) -> tuple[float, float, float]:
    m = float(np.mean(values))
    half = T975.get(len(values) - 1, 1.96) * float(np.std(values, ddof=1)) / math.sqrt(len(values))
    return m, max(0.0, m - half), min(100.0, m + half)


def cell(values: list[float], n: int) -> str:
    if len(values) == 1:
        low, high = wilson(values[0], n)
        return f"{values[0]:.2f} [{low:.2f}, {high:.2f}]"
    m, low, high = t_interval(values)
    return f"{m:.2f} [{low:.2f}, {high:.2f}]"


def devices_text(run: dict) -> str:
    """Where a run trained (each device's epochs, and the machines its sittings ran on, with their CPU
    where it was recorded) and where its test answers were made."""
    train = ", ".join(f"{d} x{n}" for d, n in run.get("train_devices", {}).items()) or "unrecorded"
    hosts = sorted({c["host"] for c in run.get("commands", []) if c.get("host")})
    where = f" on {', '.join(hosts)}" if hosts else ""
    return f"train: {train}{where}; answers: {run.get('answers_device', 'unrecorded')}"


def table_text(dest: Path, table: dict) -> str:
    ids, configs, targets, sha = read_key(dest / "keys" / f"{table['data']}.tsv.gz")
    lines = [f"## {table['title']}", "",
             f"Test accuracy (%) per problem on {len(ids)} problems of `{table['data']}`, rebuilt by "
             "scripts/neural/rescore.py from this folder's keys/ and runs/; [95 % interval: Wilson for one run, "
             "t over runs clipped to 0..100].", "",
             "| model | " + " | ".join(COLUMNS) + " | runs | devices (epochs) |",
             "|---|" + "---:|" * len(COLUMNS) + "---|---|"]
    averages: dict[str, dict[int, float]] = {}  # per row: the Avg of each finished run, by its place
    for label, runs in table["rows"]:
        present = [r for r in runs if (dest / "runs" / r / "answers.gz").exists()]
        if not present:
            continue
        per_run = [run_accuracy(read_answers(dest / "runs" / r / "answers.gz", sha, len(ids)), configs, targets)
                   for r in present]
        counts = per_run[0][1]
        cells = [cell([acc[i] for acc, _ in per_run], counts[i]) for i in range(len(COLUMNS))]
        info = [json.loads((dest / "runs" / r / "run.json").read_text()) for r in present]
        devices = "; ".join(f"{r}: {devices_text(i)}" for r, i in zip(present, info))
        missing = f" ({len(present)} of {len(runs)})" if len(present) < len(runs) else ""
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {len(present)}{missing} | {devices} |")
        averages[label] = {runs.index(r): acc[0] for r, (acc, _) in zip(present, per_run)}
    for label, values in table.get("paper", {}).items():
        lines.append(f"| paper: {label} | " + " | ".join(values) + " | | published |")
    effects = []
    for label, a, b in table.get("effects", []):
        # the k-th run a row lists with the other's k-th (one seed), where both are published
        va, vb = averages.get(a, {}), averages.get(b, {})
        pairs = [(va[k], vb[k]) for k in sorted(va.keys() & vb.keys())]
        if not pairs:
            continue
        diffs = [x - y for x, y in pairs]
        if len(diffs) == 1:
            effects.append(f"- {label}: {diffs[0]:+.2f} points (one pair, no interval)")
        else:
            m, _, _ = t_interval(diffs)
            half = T975.get(len(diffs) - 1, 1.96) * float(np.std(diffs, ddof=1)) / math.sqrt(len(diffs))
            effects.append(f"- {label}, paired by seed: " + ", ".join(f"{d:+.2f}" for d in diffs) +
                           f" points; mean {m:+.2f} ± {half:.2f} (95 % t, {len(diffs)} pairs)")
    return "\n".join(lines + ([""] + effects if effects else []) + epoch_choices(dest, table)) + "\n"


def early_stop(rows: list[dict], patience: int = 20) -> dict:
    """The epoch early stopping would have chosen: the best validation epoch (the first of equals) among
    those trained before `patience` epochs passed without a better one (rave train --patience)."""
    best = rows[0]
    for r in rows[1:]:
        if int(r["epoch"]) - int(best["epoch"]) > patience:
            break
        if float(r["val_accuracy"]) > float(best["val_accuracy"]):
            best = r
    return best


RULES = ["best validation", "early stop (patience 20)", "last epoch", "best test (oracle)"]


def rule_epochs(dest: Path, run: str) -> tuple[list[dict], int] | None:
    """The epochs each rule would report, in RULES' order, and the number of tested epochs, for a
    finished run whose curve carries the test of every epoch (--log-test); None for any other."""
    curves = dest / "curves" / f"{run}.csv"
    if not curves.exists() or not (dest / "runs" / run / "run.json").exists():
        return None  # no curve, or a run not finished (its evidence is published when it is)
    text = curves.read_text().splitlines()
    header = text[0].split(",")
    if "test_accuracy" not in header:
        return None
    rows = [dict(zip(header, line.split(","))) for line in text[1:] if line]
    rows = [r for r in rows if r.get("test_accuracy")]
    if not rows:
        return None
    val = max(rows, key=lambda r: (float(r["val_accuracy"]), -int(r["epoch"])))
    best = max(rows, key=lambda r: (float(r["test_accuracy"]), -int(r["epoch"])))
    return [val, early_stop(rows), rows[-1], best], len(rows)


def rule_effects(table: dict, chosen: dict[str, list[dict]]) -> list[str]:
    """Each paired effect under each rule: the k-th run a row lists against the other row's k-th,
    over the places where both runs have a per-epoch test."""
    rows = dict(table["rows"])
    lines = []
    for label, a, b in table.get("effects", []):
        pairs = [(x, y) for x, y in zip(rows.get(a, []), rows.get(b, [])) if x in chosen and y in chosen]
        if not pairs:
            continue
        cells = []
        for i in range(len(RULES)):
            diffs = [100 * (float(chosen[x][i]["test_accuracy"]) - float(chosen[y][i]["test_accuracy"]))
                     for x, y in pairs]
            mean = f"; mean {sum(diffs) / len(diffs):+.2f}" if len(diffs) > 1 else ""
            cells.append(", ".join(f"{d:+.2f}" for d in diffs) + mean)
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {len(pairs)} |")
    if not lines:
        return []
    return ["", "Paired effects (points) under each rule, from the same curves (one figure per pair, then their mean):", "",
            "| effect | " + " | ".join(RULES) + " | pairs |", "|---|" + "---:|" * (len(RULES) + 1)] + lines


def epoch_choices(dest: Path, table: dict) -> list[str]:
    """For runs whose curves carry the test of every epoch (--log-test): the test Avg that "best
    validation", early stopping with patience 20 (Table 2's rule), "last epoch" and "best test" (an
    oracle, never a protocol) would each report, and the table's paired effects under each rule."""
    runs = [r for _, names in table["rows"] for r in names]
    found = {run: result for run in runs if (result := rule_epochs(dest, run)) is not None}
    if not found:
        return []
    pick = lambda r: f"{100 * float(r['test_accuracy']):.2f} (epoch {r['epoch']})"
    lines = [f"| {run} | " + " | ".join(pick(r) for r in picks) + f" | {n} |" for run, (picks, n) in found.items()]
    chosen = {run: picks for run, (picks, _) in found.items()}
    return ["", "Test Avg (%) at the epoch each rule would report (from the runs' curves: the test of every "
            "epoch, logged for diagnosis only):", "",
            "| run | " + " | ".join(RULES) + " | epochs |",
            "|---|" + "---:|" * (len(RULES) + 1)] + lines + rule_effects(table, chosen)


def rebuild(dest: Path, check: bool) -> list[str]:
    """Writes (or, with check, compares) every table of a published folder; the differing tables."""
    tables = json.loads((dest / "tables.json").read_text())
    stale = []
    for table in tables:
        text = table_text(dest, table)
        path = dest / f"{table['name']}.md"
        if check:
            if not path.exists() or path.read_text() != text:
                stale.append(str(path))
        else:
            path.write_text(text)
    return stale


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dest", nargs="+", type=Path, help="published folders (with tables.json)")
    p.add_argument("--check", action="store_true", help="compare instead of writing; exit 1 on a difference")
    a = p.parse_args(argv)
    try:
        stale = [s for d in a.dest for s in rebuild(d, a.check)]
    except (EvidenceError, OSError, json.JSONDecodeError, KeyError) as e:
        print(f"rescore: error: {e}", file=sys.stderr)
        return 1
    for s in stale:
        print(f"rescore: {s} is not what its evidence gives", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
