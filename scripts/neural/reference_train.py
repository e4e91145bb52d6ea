#!/usr/bin/env python3
"""Train the RAVEN paper's own CNN_MLP (CNN+DRT) or the same network without the tree (CNN) on a rave
data folder with the paper's recipe, and write what `rave train` writes for the same run, so the
reference's rows sit in rave's tables (docs/neural.md#the-reference-beside-rave).

    scripts/neural/reference_train.py --code RAVEN-CHECKOUT --data DIR --model cnn|cnn-drt --out RUN
        [--epochs 200] [--patience 20] [--seed 12345] [--device cuda] [--workers 16]

The model, its Adam (lr 1e-4, betas 0.9/0.999, eps 1e-8) and its train_ / validate_ / test_ steps are
the reference's (scripts/neural/reference.py loads them from the checkout); so are the samples: every
problem goes through the reference's own dataset class once (npz, Pillow's bilinear resize, its GloVe
pickle and tree rows), in --workers processes, and is kept in memory (on the GPU), which changes no
sample and spares its loader 200 passes over the disk. An epoch visits the training problems in a
torch.randperm order (what its DataLoader(shuffle=True) draws; --order rave: the order `rave train`
takes for the same --seed), batch 32 with the last partial batch kept, then validates and tests in
eval mode, as its main.py. The reference seeds only CUDA; here torch's CPU generator is seeded too
(rave's dropout seed for each epoch), so the run is repeatable. With --save-init's weights given to
`rave train --init-weights` and --order rave here, the two runs take the same batches and dropout
masks from the same weights: they differ by float rounding alone.

Written to RUN, after every epoch and atomically: metrics.jsonl (rave's fields, with test_* for every
epoch and the reference's own mean-of-batch accuracies), last.pth (weights, Adam, history, for
--resume across GPU leases), best.pth (best validation), and at the end predictions/best.jsonl and
predictions/last.jsonl (rave score's format: id, answer, the 8 scores) and test.csv (Avg and the seven
configurations of the best-validation epoch, per problem). Early stopping as rave's campaign:
--patience epochs without a better validation accuracy (0: all epochs).
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference as R  # noqa: E402

CONFIGS = ["center_single", "distribute_four", "distribute_nine", "left_center_single_right_center_single",
           "up_center_single_down_center_single", "in_center_single_out_center_single",
           "in_distribute_four_out_center_single"]
COLUMNS = ["Center", "2x2Grid", "3x3Grid", "L-R", "U-D", "O-IC", "O-IG"]

_worker_dataset = None


def _init_worker(code: str, data: str, split: str, work: str) -> None:
    global _worker_dataset
    torch.set_num_threads(1)
    _worker_dataset = R.reference_dataset(R.load_reference(Path(code)), Path(data), split, Path(work))


def _sample(i: int) -> tuple:
    """One problem as numpy arrays: a tensor would travel back as a shared-memory file descriptor that
    the receiving process keeps open, six per problem, past the open-file limit on a 42,000-problem
    split (the pool's workers then die: BrokenProcessPool)."""
    image, target, meta_target, meta_structure, embedding, indicator = _worker_dataset[i]
    assert 0 <= float(image.min()) and float(image.max()) <= 255, "panels are uint8 grey levels"
    fields = (image.to(torch.uint8), target, meta_target, meta_structure, embedding, indicator)
    return tuple(torch.as_tensor(f).numpy() for f in fields)


def load_split(code: Path, data: Path, split: str, work: Path, workers: int) -> dict:
    """Every sample of a split through the reference's __getitem__, stacked, with ids and configs."""
    ref = R.load_reference(code)
    dataset = R.reference_dataset(ref, data, split, work)
    # the reference's glob order is the file system's; sorted here so that ids and batches repeat
    ids = sorted((Path(p).parent.name + "/" + Path(p).stem, i) for i, p in enumerate(dataset.file_names))
    with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(str(code), str(data), split, str(work))) as pool:
        samples = list(pool.map(_sample, [i for _, i in ids], chunksize=64))
    fields = [torch.from_numpy(np.stack([s[k] for s in samples])) for k in range(6)]
    configs = [CONFIGS.index(i.split("/")[0]) for i, _ in ids]
    return {"ids": [i for i, _ in ids], "configs": configs, "fields": fields}


def files_digest(data: Path) -> str:
    """SHA-256 of rave.json's list of files (each with its size and CRC-32): what the samples depend on.
    Not the file's time or its whole text: `rave generate --resume` rewrites rave.json (a newer
    rave_version) over the very same files."""
    import hashlib
    files = json.loads((data / "rave.json").read_text())["files"]
    return hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()


def cached_splits(a: argparse.Namespace, work: Path) -> dict:
    """load_split of the three splits, kept in DATA/.reference-samples.pt for the next run on the same
    files (the reference's preprocessing depends on nothing else; the file is not rave's), with
    .reference-samples.key naming the files it was made from (files_digest)."""
    import fcntl
    cache, key = a.data / ".reference-samples.pt", a.data / ".reference-samples.key"
    digest = files_digest(a.data)
    with open(a.data / ".reference-samples.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one run makes it, the others wait and read it
        if cache.exists() and key.exists() and key.read_text().strip() == digest:
            return torch.load(cache, weights_only=False)
        splits = {s: load_split(a.code, a.data, s, work, a.workers) for s in ("train", "val", "test")}
        atomic_save(splits, cache)
        atomic_text(key, digest + "\n")
        return splits


def batch(split: dict, index: torch.Tensor) -> tuple:
    image, *rest = (f[index] for f in split["fields"])
    return (image.float(), *rest)


def evaluate(model, split: dict, batch_size: int) -> dict:
    """The reference's validate_ / test_ figures (cross-entropy, the mean of per-batch accuracies) and
    rave's (per problem, per configuration), from one eval-mode forward pass per batch."""
    model.eval()
    n = len(split["ids"])
    losses, accs, scores = [], [], []
    for start in range(0, n, batch_size):
        index = torch.arange(start, min(start + batch_size, n), device=split["fields"][0].device)
        b = batch(split, index)
        with torch.no_grad():  # what validate_ and test_ compute, from one forward pass
            out = model(b[0], b[4], b[5])[0].float()
        losses.append(float(F.cross_entropy(out, b[1])) * len(index))
        accs.append(float((out.argmax(1) == b[1]).float().mean()) * 100)
        scores.append(out.cpu())
    scores = torch.cat(scores)
    targets = split["fields"][1].cpu()
    right = (scores.argmax(1) == targets).tolist()
    correct, total = [0] * 7, [0] * 7
    for r, c in zip(right, split["configs"]):
        correct[c] += int(r)
        total[c] += 1
    return {"loss": sum(losses) / n, "accuracy": sum(correct) / n, "batch_mean_accuracy": sum(accs) / len(accs) / 100,
            "correct": correct, "total": total, "scores": scores}


def atomic_save(obj, path: Path) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    torch.save(obj, tmp)
    os.replace(tmp, path)


@contextlib.contextmanager
def held_signals():
    """SIGINT and SIGTERM wait while an epoch's files are written (best.pth, test.csv, metrics.jsonl,
    last.pth, the predictions), then come with the handlers of before: a stopped run's files agree."""
    came: list[int] = []
    old = {number: signal.signal(number, lambda got, _frame: came.append(got))
           for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for number, handler in old.items():
            signal.signal(number, handler)
        if came:
            os.kill(os.getpid(), came[0])


def atomic_text(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def predictions(path: Path, split: dict, scores: torch.Tensor, model_name: str) -> None:
    lines = []
    for k, (i, s) in enumerate(zip(split["ids"], scores.tolist())):
        record = {"id": i, "answer": int(max(range(8), key=lambda c: s[c])), "scores": s}
        if k == 0:
            record["model"] = model_name
        lines.append(json.dumps(record))
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_text(path, "\n".join(lines) + "\n")


def test_csv(result: dict) -> str:
    acc = [100 * c / t if t else float("nan") for c, t in zip(result["correct"], result["total"])]
    return ("model,Avg," + ",".join(COLUMNS) + "\n" + "reference," + f"{100 * result['accuracy']:.2f}," +
            ",".join(f"{a:.2f}" for a in acc) + "\n")


def rave_file_order(ids: list[str]) -> list[int]:
    """Positions in `ids` (config/stem, sorted as text) in the order rave train lists its training
    files: configuration by configuration, then by problem number (neural/dataset.cpp)."""
    def key(i: int) -> tuple:
        config, stem = ids[i].split("/")
        return CONFIGS.index(config), int(stem.split("_")[1])
    return sorted(range(len(ids)), key=key)


def epoch_order(a: argparse.Namespace, ids: list[str], epoch: int) -> torch.Tensor:
    """The training problems' order in `epoch`: a torch.randperm (what the reference's
    DataLoader(shuffle=True) draws), or with --order rave the very order `rave train --seed` takes."""
    if a.order == "rave":
        files = rave_file_order(ids)
        return torch.tensor([files[k] for k in R.epoch_order(len(ids), a.seed, epoch)])
    generator = torch.Generator().manual_seed(R.mix64(a.seed ^ R.mix64(epoch)) & ((1 << 63) - 1))
    return torch.randperm(len(ids), generator=generator)


def initial_model(a: argparse.Namespace, tree: bool):
    """The reference's CNN_MLP as its run starts: torch seeded with --seed, then constructed, then
    (--bn-init uniform) its batch-norm weights redrawn."""
    torch.manual_seed(a.seed)
    model = R.reference_cnn(R.load_reference(a.code), tree)
    if a.bn_init == "uniform":  # PyTorch < 1.2's BatchNorm.reset_parameters (pytorch/pytorch#12325)
        for m in model.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                torch.nn.init.uniform_(m.weight)
    return model


def save_init(a: argparse.Namespace) -> None:
    """--save-init: the weights the reference's run starts from, for rave to start from the same."""
    tree = a.model == "cnn-drt"
    a.save_init.parent.mkdir(parents=True, exist_ok=True)
    atomic_save(R.to_rave(initial_model(a, tree).state_dict(), tree), a.save_init)
    print(f"{a.save_init}: the reference {a.model}'s initial weights for seed {a.seed}, in rave's names")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--code", type=Path, required=True)
    p.add_argument("--data", type=Path)
    p.add_argument("--model", choices=["cnn", "cnn-drt"], required=True)
    p.add_argument("--out", type=Path)
    p.add_argument("--epochs", type=int, default=200)
    p.add_argument("--patience", type=int, default=20)
    p.add_argument("--seed", type=int, default=12345)
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--threads", type=int, default=0, help="torch threads on the CPU (0: torch's default)")
    p.add_argument("--bn-init", choices=["ones", "uniform"], default="ones",
                   help="batch-norm weights at the start: ones (torch since 1.2, what this torch does) or "
                        "uniform: U(0, 1), what the reference's PyTorch (before 1.2) did")
    p.add_argument("--order", choices=["randperm", "rave"], default="randperm",
                   help="each epoch's order of the training problems: randperm (the reference's shuffling) "
                        "or rave (the order `rave train --seed` takes; with its dropout seed, the very "
                        "batches and masks: the reference as rave's twin)")
    p.add_argument("--save-init", type=Path, metavar="FILE",
                   help="write the reference's initial weights for --seed in rave's names (for `rave train "
                        "--init-weights FILE`) and stop: no data is read, --out is not touched")
    a = p.parse_args(argv)
    if a.save_init:
        save_init(a)
        return 0
    if a.out is None or a.data is None:
        p.error("--data and --out are required (unless --save-init)")
    if a.threads:
        torch.set_num_threads(a.threads)
    device = torch.device(a.device)
    a.out.mkdir(parents=True, exist_ok=True)
    work = R._link_root(a.data).parent / (R._link_root(a.data).name + "-w")  # no split name in it
    tree = a.model == "cnn-drt"
    name = "reference CNN+DRT" if tree else "reference CNN"
    t0 = time.time()
    # all three through the workers first (forked before CUDA starts), then onto the device; the runs
    # of one lease share the result through a file beside the data (the first one makes it)
    splits = cached_splits(a, work)
    for split in splits.values():
        split["fields"] = [f.to(device) for f in split["fields"]]
    print(f"{name}: {len(splits['train']['ids'])}/{len(splits['val']['ids'])}/{len(splits['test']['ids'])} problems "
          f"through the reference's loader in {time.time() - t0:.0f} s", flush=True)

    torch.cuda.manual_seed(a.seed) if device.type == "cuda" else None
    model = initial_model(a, tree).to(device)  # its Adam holds these very parameters
    history, best_val, best_epoch = [], -1.0, 0
    last = a.out / "last.pth"
    if last.exists():
        state = torch.load(last, map_location=device, weights_only=False)
        model.load_state_dict(state["model"])
        model.optimizer.load_state_dict(state["optimizer"])
        history, best_val, best_epoch = state["history"], state["best_val"], state["best_epoch"]
        print(f"{name}: resumed after epoch {len(history)}", flush=True)
    device_name = str(device) + (f" ({torch.cuda.get_device_name(device)})" if device.type == "cuda" else "")
    n = len(splits["train"]["ids"])
    for epoch in range(len(history) + 1, a.epochs + 1):
        if a.patience and epoch - 1 - best_epoch >= a.patience:
            break
        start = time.time()
        model.train()
        order = epoch_order(a, splits["train"]["ids"], epoch).to(device)
        torch.manual_seed(R.dropout_seed(a.seed, epoch) & ((1 << 63) - 1))
        loss_sum, correct = 0.0, 0.0
        for s in range(0, n, a.batch_size):
            b = batch(splits["train"], order[s:s + a.batch_size])
            loss, acc = model.train_(*b)
            loss_sum += loss * len(b[1])
            correct += float(acc) / 100 * len(b[1])
        train_seconds = time.time() - start
        val = evaluate(model, splits["val"], a.batch_size)
        test = evaluate(model, splits["test"], a.batch_size)
        with held_signals():  # a stop now waits until the epoch's files all agree
            is_best = val["accuracy"] > best_val
            if is_best:
                best_val, best_epoch = val["accuracy"], epoch
                atomic_save({"model": model.state_dict(), "epoch": epoch}, a.out / "best.pth")
                predictions(a.out / "predictions" / "best.jsonl", splits["test"], test["scores"], name)
                atomic_text(a.out / "test.csv", test_csv(test))
            history.append({"epoch": epoch, "train_loss": loss_sum / n, "train_accuracy": correct / n,
                            "val_loss": val["loss"], "val_accuracy": val["accuracy"],
                            "val_batch_mean_accuracy": val["batch_mean_accuracy"],
                            "seconds": time.time() - start, "train_problems_per_s": n / max(train_seconds, 1e-9),
                            "best": is_best, "device": device_name, "test_loss": test["loss"],
                            "test_accuracy": test["accuracy"], "test_batch_mean_accuracy": test["batch_mean_accuracy"],
                            "test_correct": test["correct"], "test_total": test["total"],
                            "test_use": "diagnosis only; the checkpoint is chosen by validation accuracy"})
            atomic_text(a.out / "metrics.jsonl", "".join(json.dumps(h) + "\n" for h in history))
            atomic_save({"model": model.state_dict(), "optimizer": model.optimizer.state_dict(), "history": history,
                         "best_val": best_val, "best_epoch": best_epoch}, last)
            predictions(a.out / "predictions" / "last.jsonl", splits["test"], test["scores"], name + " (last epoch)")
        print(f"{name} epoch {epoch}/{a.epochs}  train loss {loss_sum / n:.4f} acc {100 * correct / n:.2f}%  "
              f"val {100 * val['accuracy']:.2f}%  test {100 * test['accuracy']:.2f}% (diagnosis)  "
              f"{time.time() - start:.1f} s{'  (best)' if is_best else ''}", flush=True)
    stopped = len(history) < a.epochs
    atomic_text(a.out / "done.json", json.dumps({"epochs": len(history), "best_epoch": best_epoch,
                                                  "best_val_accuracy": best_val, "stopped_early": stopped}) + "\n")
    best = history[best_epoch - 1]
    cells = [100 * c / t if t else float("nan") for c, t in zip(best["test_correct"], best["test_total"])]
    atomic_text(a.out / "test.md", f"| model | Avg | {' | '.join(COLUMNS)} | note |\n|---|" + "---:|" * 8 + "---|\n"
                f"| {name} | {100 * best['test_accuracy']:.2f} | " + " | ".join(f"{x:.2f}" for x in cells) +
                f" | best validation epoch {best_epoch} of {len(history)} |\n")
    print(f"{name}: best epoch {best_epoch} (val {100 * best_val:.2f}%), {len(history)} epochs", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
