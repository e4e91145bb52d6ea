#!/usr/bin/env python3
"""Where does rave's CNN / CNN+DRT differ from the RAVEN paper's own code? Measured on the same
weights, the same problems and the same batches (docs/neural.md#the-reference-beside-rave).

    scripts/neural/reference_check.py --code RAVEN-CHECKOUT --data DIR [--rave build/apps/rave]
        [--work DIR] [--seed 12345] [--json report.json]

DIR is a rave data folder (rave generate, or the original generator's files). For the data, every
problem of every split goes through the reference's loader (its npz reading, scipy.misc.imresize =
Pillow's bilinear filter, its GloVe pickle and tree rows from the `structure` field) and through
rave's (rave.torch.RavenFolder, the pipeline `rave train` uses): panels, target, the 6 label rows
and the indicator are compared, and rave's compiled GloVe table with the reference's pickle.

For each of CNN and CNN+DRT: the reference initialises its model (torch seed --seed); its weights
go to rave by name (`rave train --init-weights`), and rave trains one epoch whose one batch is the
whole training split (-b = its size, so the order matters only for dropout), one thread. The
reference then takes the same step with its own train_() and its own torch Adam, on the batch in
rave's order and with torch's generator seeded as rave seeds it for that epoch (the same wheel, so
the same dropout mask). Compared: the training loss, every gradient (rave's from Adam's first
moment, m = (1 - beta1) g after one step), the weights and batch-norm statistics after the step,
validation loss and accuracy, and the test logits of `rave eval --predictions` against the
reference's forward on rave's weights. Prints a table, exits 1 when a difference exceeds float32
rounding (the tolerances below).

With several steps (--batch-size below the split, or --epochs), rounding grows: Adam turns a gradient
of rounding size into a step of lr. So rave also trains on 2 threads from the same weights, batches
and masks (only the order of float additions differs), and a rave-vs-reference difference counts only
past 10x that rave-vs-rave one (control_* in the report).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference as R  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
BETA1 = 0.9


def compare_data(ref, data: Path, work: Path) -> dict:
    """The reference's loader against rave's on every problem of every split."""
    import rave
    from rave.torch import DRT_FIELDS, RavenFolder
    glove = np.load(ROOT / "neural" / "data" / "glove-22x300.npy")
    pickle = np.load(ref.embedding, allow_pickle=True, encoding="latin1").item()
    table_diff = max(float(np.abs(glove[i] - np.asarray(pickle[name], np.float32)).max())
                     for i, name in enumerate(rave.DRT_LABELS))
    out = {"glove_table_max_abs_diff": table_diff, "glove_keys_equal": sorted(pickle) == sorted(rave.DRT_LABELS)}
    table = torch.from_numpy(np.concatenate([glove, np.zeros((1, 300), np.float32)]))
    worst = {"problems": 0, "image_max_abs_diff": 0.0, "pixels_differing": 0, "target_diff": 0,
             "meta_target_diff": 0, "embedding_max_abs_diff": 0.0, "indicator_diff": 0}
    for split in ("train", "val", "test"):
        theirs = R.reference_dataset(ref, data, split, work)
        by_path = {str(Path(p).parent.name + "/" + Path(p).name): i for i, p in enumerate(theirs.file_names)}
        ours = RavenFolder(data, split=split, fields=DRT_FIELDS + ("index",))
        for j, (path, _) in enumerate(ours.files):
            image, target, meta_target, _, labels, indicator, _ = ours[j]
            t_image, t_target, t_meta, _, t_embedding, t_indicator = theirs[by_path[Path(path).parent.name + "/" + Path(path).name]]
            rows = torch.where(labels < 0, torch.full_like(labels, 22), labels)
            diff = (image - t_image).abs()
            worst["problems"] += 1
            worst["image_max_abs_diff"] = max(worst["image_max_abs_diff"], float(diff.max()))
            worst["pixels_differing"] += int((diff > 0).sum())
            worst["target_diff"] += int(target != t_target)
            worst["meta_target_diff"] += int(not torch.equal(meta_target, t_meta))
            worst["embedding_max_abs_diff"] = max(worst["embedding_max_abs_diff"],
                                                  float((table[rows] - t_embedding).abs().max()))
            worst["indicator_diff"] += int(float(indicator) != float(t_indicator))
    out.update(worst)
    return out


def rave_run(rave: Path, data: Path, out: Path, tree: bool, init: Path, batch: int, seed: int, epochs: int,
             threads: int = 1) -> None:
    cmd = [str(rave), "train", "-m", "cnn", *(["--drt"] if tree else []), "-d", str(data), "-o", str(out),
           "-e", str(epochs), "-b", str(batch), "-s", str(seed), "-j", str(threads), "--loader-threads", "1",
           "--init-weights", str(init), "--device", "cpu"]
    subprocess.run(cmd, check=True, capture_output=True, text=True)


def rave_logits(rave: Path, data: Path, checkpoint: Path, out: Path) -> dict:
    subprocess.run([str(rave), "eval", str(checkpoint), "-d", str(data), "--no-solver", "-j", "1",
                    "--device", "cpu", "--predictions", str(out)], check=True, capture_output=True, text=True)
    logits = {}
    for line in out.read_text().splitlines():
        record = json.loads(line)
        logits[Path(record["id"]).parent.name + "/" + Path(record["id"]).name.removesuffix(".npz")] = record["scores"]
    return logits


def batch_of(dataset, order: list[int], files: list[str]) -> tuple:
    by_path = {str(Path(p).parent.name + "/" + Path(p).name): i for i, p in enumerate(dataset.file_names)}
    return R.collate([dataset[by_path[files[k]]] for k in order])


def rounding_control(rave: Path, data: Path, work: Path, name: str, tree: bool, init: Path, batch: int,
                     seed: int, epochs: int, history: list[dict], weights: dict) -> dict:
    """rave against itself: the same run on 2 threads instead of 1 (the same weights, batches and
    dropout masks; only the order of float additions differs). Over many steps training amplifies
    rounding (Adam turns a gradient of rounding size into a step of lr), so rave-vs-reference
    differences are weighed against this one: the size rounding alone reaches in as many steps."""
    run = work / f"rave-{name}-2threads"
    rave_run(rave, data, run, tree, init, batch, seed, epochs, threads=2)
    other, _ = R.read_rave_checkpoint(run / "last.pt")
    again = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    skip = {f"conv.{3 * k}.bias" for k in range(4)}
    diff, at = max((float((weights[n].double() - other[n].double()).abs().max()), n) for n in weights
                   if n not in skip and n in other and weights[n].is_floating_point()
                   and not n.endswith(("running_mean", "running_var")))
    return {"control_train_loss_abs_diff": max(abs(a["train_loss"] - b["train_loss"]) for a, b in zip(history, again)),
            "control_weights_max_abs_diff": diff, "control_weights_max_abs_diff_at": at}


def max_rel(a: torch.Tensor, b: torch.Tensor) -> float:
    return float((a.double() - b.double()).abs().max() / max(float(b.double().abs().max()), 1e-30))


def compare_model(ref, rave: Path, data: Path, work: Path, tree: bool, seed: int, epochs: int = 1,
                  batch: int = 0) -> dict:
    from rave.torch import RavenFolder
    name = "CNN+DRT" if tree else "CNN"
    torch.manual_seed(seed)
    model = R.reference_cnn(ref, tree)
    init = work / f"init-{name}.pt"
    torch.save(dict(R.to_rave(model.state_dict(), tree)), init)
    train_files = [Path(p).parent.name + "/" + Path(p).name for p, _ in RavenFolder(data, split="train").files]
    run = work / f"rave-{name}"
    n = len(train_files)
    batch = batch or n
    rave_run(rave, data, run, tree, init, batch, seed, epochs)
    rave_w1, adam = R.read_rave_checkpoint(run / "last.pt")
    history = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    metrics = history[-1]

    # The reference's steps: rave's order each epoch, torch's generator seeded as rave seeds it.
    train = R.reference_dataset(ref, data, "train", work)
    losses = []
    for epoch in range(1, epochs + 1):
        order = R.epoch_order(n, seed, epoch)
        torch.manual_seed(R.dropout_seed(seed, epoch))
        model.train()
        total = 0.0
        for start in range(0, n, batch):
            image, target, meta_target, meta_structure, embedding, indicator = batch_of(
                train, order[start:start + batch], train_files)
            loss, _ = model.train_(image, target, meta_target, meta_structure, embedding, indicator)
            total += loss * len(target)
        losses.append(total / n)
    loss = losses[-1]
    ours = R.to_reference(rave_w1, tree)
    theirs = model.state_dict()
    names = list(R._cnn_names(tree))
    # rave's parameter order is its model's (neural/models.cpp): conv, tree, fc1, fc2
    order = [n for n in [r for r, _ in names] if not n.split(".")[-1] in ("running_mean", "running_var", "num_batches_tracked")]
    grads = {}
    for index, rave_name in enumerate(order):  # Adam's state in rave's parameter order
        if index in adam and "exp_avg" in adam[index]:
            ref_name = dict(names)[rave_name]
            grads[rave_name] = (adam[index]["exp_avg"] / (1 - BETA1), dict(model.named_parameters())[ref_name].grad)
    report = {"model": name, "steps": epochs * ((n + batch - 1) // batch),
              "train_loss_rave": metrics["train_loss"], "train_loss_reference": loss,
              "train_loss_abs_diff": max(abs(h["train_loss"] - l) for h, l in zip(history, losses))}
    # Conv biases before batch norm: their true gradient is 0 and what is computed is rounding, which
    # Adam's first step turns into +-lr whatever its size; listed apart.
    rounding = {f"conv.{3 * k}.bias" for k in range(4)}
    if report["steps"] == 1:  # Adam's first moment is (1 - beta1) g only after one step
        report["gradient_max_rel_diff"] = max(max_rel(a, b) for k, (a, b) in grads.items() if k not in rounding)
        report["gradient_max_rel_diff_conv_bias"] = max(max_rel(a, b) for k, (a, b) in grads.items() if k in rounding)
        report["gradients_compared"] = len(grads)
    weights = {n: (ours[dict(names)[n]], theirs[dict(names)[n]]) for n in dict(names) if dict(names)[n] in ours}
    stats = ("running_mean", "running_var", "num_batches_tracked")
    report["weights_max_abs_diff"], report["weights_max_abs_diff_at"] = max(
        (float((a.double() - b.double()).abs().max()), n) for n, (a, b) in weights.items()
        if n not in rounding and not n.endswith(stats))
    report["conv_bias_max_abs_diff"] = max(float((a.double() - b.double()).abs().max())
                                           for n, (a, b) in weights.items() if n in rounding)
    bn = [n for n in weights if n.endswith(("running_mean", "running_var"))]
    report["bn_stats_max_rel_diff"] = max(max_rel(*weights[n]) for n in bn)
    if report["steps"] > 1:
        report.update(rounding_control(rave, data, work, name, tree, init, batch, seed, epochs, history, rave_w1))


    # Validation with the reference's own validate_ (eval mode), per problem as rave counts it.
    model.eval()
    val = R.reference_dataset(ref, data, "val", work)
    v = R.collate([val[i] for i in range(len(val))])
    with torch.no_grad():
        logits = model(v[0], v[4], v[5])[0]
    report["val_loss_rave"], report["val_loss_reference"] = metrics["val_loss"], float(F.cross_entropy(logits, v[1]))
    report["val_accuracy_rave"] = metrics["val_accuracy"]
    report["val_accuracy_reference"] = float((logits.argmax(1) == v[1]).float().mean())

    # Test logits: rave eval on rave's best.pt against the reference's forward on the same weights.
    best, _ = R.read_rave_checkpoint(run / "best.pt")
    model.load_state_dict({**model.state_dict(), **R.to_reference(best, tree)})
    model.eval()
    rave_test = rave_logits(rave, data, run / "best.pt", work / f"predictions-{name}.jsonl")
    test = R.reference_dataset(ref, data, "test", work)
    t = R.collate([test[i] for i in range(len(test))])
    with torch.no_grad():
        ref_test = model(t[0], t[4], t[5])[0]
    keys = [Path(p).parent.name + "/" + Path(p).name.removesuffix(".npz") for p in test.file_names]
    ours_test = torch.tensor([rave_test[k] for k in keys])
    report["test_logits_max_abs_diff"] = float((ours_test - ref_test).abs().max())
    report["test_argmax_agree"] = int((ours_test.argmax(1) == ref_test.argmax(1)).sum())
    report["test_problems"] = len(keys)
    return report


CONTROL_FACTOR = 10
TOLERANCES = {"train_loss_abs_diff": 1e-5, "gradient_max_rel_diff": 1e-3, "weights_max_abs_diff": 1e-5,
              "bn_stats_max_rel_diff": 1e-4, "test_logits_max_abs_diff": 1e-3}


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--code", type=Path, required=True, help="a WellyZhang/RAVEN checkout")
    p.add_argument("--data", type=Path, required=True, help="a rave data folder (all three splits)")
    p.add_argument("--rave", type=Path, default=ROOT / "build" / "apps" / "rave")
    p.add_argument("--work", type=Path, default=None, help="scratch folder (default: a temporary one)")
    p.add_argument("--seed", type=int, default=12345)
    p.add_argument("--epochs", type=int, default=1, help="epochs both train (default 1)")
    p.add_argument("--batch-size", type=int, default=0, help="default: the whole training split (one step)")
    p.add_argument("--json", type=Path, help="write the report here too")
    a = p.parse_args(argv)
    torch.set_num_threads(1)
    ref = R.load_reference(a.code)
    with tempfile.TemporaryDirectory(prefix="refcheck-", dir=a.work) as tmp:
        work = Path(tmp)
        report = {"data": compare_data(ref, a.data, work),
                  "models": [compare_model(ref, a.rave, a.data, work, tree, a.seed, a.epochs, a.batch_size)
                             for tree in (False, True)]}
    print(json.dumps(report, indent=2))
    if a.json:
        a.json.write_text(json.dumps(report, indent=2) + "\n")
    d = report["data"]
    bad = [k for k in ("image_max_abs_diff", "target_diff", "meta_target_diff", "indicator_diff") if d[k]]
    # After several steps Adam has turned gradients of pure rounding (the conv biases before batch norm,
    # ...) into steps of +-lr, and the weights drift apart by up to steps x lr: then the losses of every
    # epoch and the forward pass on the same weights are what must agree.
    # ... and each is weighed against rave's own rounding over as many steps (rounding_control): a
    # difference counts only past CONTROL_FACTOR times what rave on 2 threads differs from itself by.
    bad += [f"{m['model']}: {k}" for m in report["models"] for k, tol in TOLERANCES.items()
            if m.get(k, 0) > max(tol, CONTROL_FACTOR * m.get("control_" + k, 0))
            and (m["steps"] == 1 or k in ("train_loss_abs_diff", "test_logits_max_abs_diff"))]
    if bad:
        print("differences beyond float32 rounding: " + ", ".join(bad), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
