"""scripts/neural/rescore.py: tables rebuilt from a published folder's evidence alone (keys, answers,
run records), the committed folders equal to what they rebuild, and evidence.py's key read from the
npz files with the standard library."""
import gzip
import json
import math
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(os.environ.get("RAVE_SOURCE_DIR", Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(ROOT / "scripts" / "neural"))
import evidence  # noqa: E402
import rescore  # noqa: E402


def write_folder(dest: Path, answers: dict, targets: list, configs: list) -> None:
    ids = [f"{rescore.CONFIGS[c]}/RAVEN_{k}_test" for k, c in enumerate(configs)]
    (dest / "keys").mkdir(parents=True)
    with gzip.open(dest / "keys" / "raven.tsv.gz", "wt") as f:
        f.write("".join(f"{i}\t{rescore.CONFIGS[c]}\t{t}\n" for i, c, t in zip(ids, configs, targets)))
    for run, answer in answers.items():
        (dest / "runs" / run).mkdir(parents=True)
        with gzip.open(dest / "runs" / run / "answers.gz", "wt") as f:
            f.write(f"# test: key {rescore.key_hash(ids)}\n{answer}\n")
        (dest / "runs" / run / "run.json").write_text(json.dumps({"train_devices": {"cpu": 3},
                                                                  "answers_device": "cpu on here"}))
    (dest / "tables.json").write_text(json.dumps([{
        "name": "t", "title": "T", "data": "raven",
        "rows": [["A", ["a1", "a2", "a3"]], ["B", ["b1", "b2", "b3"]], ["C", ["c1"]]],
        "effects": [["A - B", "A", "B"]], "paper": {"A": ["1"] * 8}}]))


def answer_strings() -> tuple[list, list, str, str, str]:
    """14 problems, two of each configuration: their configurations, targets, and answer strings that
    are all right, all wrong, and right on the first half."""
    configs = [k % 7 for k in range(14)]
    targets = [k % 8 for k in range(14)]
    right = "".join(str(t) for t in targets)
    wrong = "".join(str((t + 1) % 8) for t in targets)
    return configs, targets, right, wrong, right[:7] + wrong[7:]


def test_rows_intervals_and_effects_from_the_answers(tmp_path):
    configs, targets, right, wrong, half = answer_strings()
    write_folder(tmp_path, {"a1": right, "a2": right, "a3": half, "b1": wrong, "b2": half, "b3": wrong,
                            "c1": right[:13] + "-"}, targets, configs)
    assert rescore.main([str(tmp_path)]) == 0
    text = (tmp_path / "t.md").read_text()
    rows = {line.split(" | ")[0][2:]: line for line in text.splitlines() if line.startswith("| ")}
    # A: 100, 100, 50 -> mean 83.33, t interval with 2 degrees of freedom
    sd = np.std([100, 100, 50], ddof=1)
    low = max(0.0, 250 / 3 - 4.303 * sd / math.sqrt(3))
    assert rows["A"].split(" | ")[1] == f"83.33 [{low:.2f}, 100.00]"
    # C: one run, 13 of 14 right, the Wilson interval
    lo, hi = rescore.wilson(100 * 13 / 14, 14)
    assert rows["C"].split(" | ")[1] == f"92.86 [{lo:.2f}, {hi:.2f}]"
    assert "cpu x3" in rows["C"]
    assert rows["paper: A"].startswith("| paper: A | 1 |")
    # the effect pairs the k-th runs: 100-0, 100-50, 50-0
    assert "A - B, paired by seed: +100.00, +50.00, +50.00 points; mean +66.67" in text
    assert rescore.main(["--check", str(tmp_path)]) == 0
    (tmp_path / "t.md").write_text(text.replace("83.33", "83.34"))
    assert rescore.main(["--check", str(tmp_path)]) == 1
    # a run whose curves carry the test of every epoch: what each rule of choosing an epoch reports
    (tmp_path / "curves").mkdir()
    (tmp_path / "curves" / "a1.csv").write_text(
        "epoch,train_loss,train_accuracy,val_loss,val_accuracy,seconds,train_problems_per_s,best,device,"
        "test_loss,test_accuracy,test_correct,test_total\n"
        "1,2,0.1,2,0.20,1,1,1,cpu,2,0.25,,\n2,2,0.2,2,0.30,1,1,1,cpu,2,0.28,,\n3,2,0.3,2,0.30,1,1,0,cpu,2,0.31,,\n"
        "4,2,0.4,2,0.10,1,1,0,cpu,2,0.22,,\n")
    assert rescore.main([str(tmp_path)]) == 0
    assert ("| a1 | 28.00 (epoch 2) | 28.00 (epoch 2) | 22.00 (epoch 4) | 31.00 (epoch 3) | 4 |"
            in (tmp_path / "t.md").read_text())


def test_early_stop_is_the_best_epoch_before_patience_ran_out():
    # validation best at epoch 1, 20 epochs without better (2-21), then a better one at 22: patience
    # 20 stops after epoch 21 and reports epoch 1, where the best of all epochs is 22
    val = [0.5] + [0.4] * 20 + [0.6, 0.3]
    rows = [{"epoch": str(e + 1), "val_accuracy": str(v)} for e, v in enumerate(val)]
    assert rescore.early_stop(rows)["epoch"] == "1"
    assert rescore.early_stop(rows, patience=21)["epoch"] == "22"
    # a tie is not an improvement (rave train's strict >), so the first of equals stays
    rows[3]["val_accuracy"] = "0.5"
    assert rescore.early_stop(rows)["epoch"] == "1"


def test_devices_name_the_machines_each_run_trained_on(tmp_path):
    write_folder(tmp_path, {r: "0" * 14 for r in ("a1", "a2", "a3", "b1", "b2", "b3", "c1")}, [0] * 14,
                 [k % 7 for k in range(14)])
    record = {"train_devices": {"cpu": 3}, "answers_device": "cpu on here",
              "commands": [{"host": "vm (AMD EPYC)", "command": "rave train"},
                           {"host": "lease (Intel Xeon)", "command": "rave train --resume"},
                           {"host": "vm (AMD EPYC)", "command": "rave train --resume"}]}
    (tmp_path / "runs" / "c1" / "run.json").write_text(json.dumps(record))
    assert rescore.main([str(tmp_path)]) == 0
    rows = {line.split(" | ")[0][2:]: line for line in (tmp_path / "t.md").read_text().splitlines()
            if line.startswith("| ")}
    assert "c1: train: cpu x3 on lease (Intel Xeon), vm (AMD EPYC); answers: cpu on here" in rows["C"]
    assert "a1: train: cpu x3; answers: cpu on here" in rows["A"]  # a record without commands


def test_answers_for_another_key_are_refused(tmp_path):
    write_folder(tmp_path, {"a1": "0" * 14}, [0] * 14, [0] * 14)
    with gzip.open(tmp_path / "runs" / "a1" / "answers.gz", "wt") as f:
        f.write("# key 0000\n" + "0" * 14 + "\n")
    assert rescore.main([str(tmp_path)]) == 1


def test_the_key_is_read_from_the_npz_files(tmp_path):
    for k, target in ((8, 3), (9, 6), (18, 1)):
        folder = tmp_path / "center_single"
        folder.mkdir(exist_ok=True)
        with zipfile.ZipFile(folder / f"RAVEN_{k}_test.npz", "w", zipfile.ZIP_DEFLATED) as z:
            for name, value in (("target", np.int64(target)), ("image", np.zeros((2, 2), np.uint8))):
                with z.open(f"{name}.npy", "w") as f:
                    np.save(f, value)
    (tmp_path / "center_single" / "RAVEN_7_val.npz").write_bytes(b"")
    evidence.write_key(tmp_path, tmp_path / "key.tsv.gz")
    lines = gzip.open(tmp_path / "key.tsv.gz", "rt").read().splitlines()
    assert lines == ["center_single/RAVEN_8_test\tcenter_single\t3", "center_single/RAVEN_9_test\tcenter_single\t6",
                     "center_single/RAVEN_18_test\tcenter_single\t1"]


@pytest.mark.parametrize("folder", sorted(p.parent for p in (ROOT / "docs" / "img").glob("*/tables.json")))
def test_committed_tables_are_what_their_evidence_gives(folder):
    result = subprocess.run([sys.executable, str(ROOT / "scripts/neural/rescore.py"), "--check", str(folder)],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_effects_pair_the_runs_of_one_seed_when_a_seed_is_missing(tmp_path):
    # A's second seed not published yet: its third pairs with B's third (100-0), never with B's second
    configs, targets, right, wrong, half = answer_strings()
    write_folder(tmp_path, {"a1": right, "a3": right, "b1": half, "b2": right, "b3": wrong, "c1": right},
                 targets, configs)
    assert rescore.main([str(tmp_path)]) == 0
    text = (tmp_path / "t.md").read_text()
    assert "A - B, paired by seed: +50.00, +100.00 points; mean +75.00" in text
    assert "| 2 (2 of 3) |" in text


def write_curve(dest: Path, run: str, val: list, test: list) -> None:
    """A --log-test curve: validation and test accuracy (fractions) per epoch."""
    (dest / "curves").mkdir(exist_ok=True)
    lines = ["epoch,train_loss,train_accuracy,val_loss,val_accuracy,seconds,train_problems_per_s,best,device,"
             "test_loss,test_accuracy,test_correct,test_total"]
    lines += [f"{e + 1},2,0.5,2,{v},1,1,0,cpu,2,{t},," for e, (v, t) in enumerate(zip(val, test))]
    (dest / "curves" / f"{run}.csv").write_text("\n".join(lines) + "\n")


def test_effects_under_each_rule_pair_the_curves_by_place(tmp_path):
    configs, targets, right, wrong, half = answer_strings()
    write_folder(tmp_path, {r: half for r in ("a1", "a2", "a3", "b1", "b2", "b3", "c1")}, targets, configs)
    # a1 - b1: best validation 0.40 - 0.30, last epoch 0.20 - 0.35, best test 0.40 - 0.35
    write_curve(tmp_path, "a1", [0.2, 0.5, 0.1], [0.3, 0.4, 0.2])
    write_curve(tmp_path, "b1", [0.5, 0.4, 0.3], [0.3, 0.25, 0.35])
    # a3 - b3 (a2 has no curve, so b2 pairs with nothing): 0.60 - 0.10 at every rule
    write_curve(tmp_path, "a3", [0.5], [0.6])
    write_curve(tmp_path, "b2", [0.5], [0.9])
    write_curve(tmp_path, "b3", [0.5], [0.1])
    assert rescore.main([str(tmp_path)]) == 0
    text = (tmp_path / "t.md").read_text()
    assert ("| A - B | +10.00, +50.00; mean +30.00 | +10.00, +50.00; mean +30.00 | -15.00, +50.00; mean +17.50 "
            "| +5.00, +50.00; mean +27.50 | 2 |") in text
    assert rescore.main(["--check", str(tmp_path)]) == 0
