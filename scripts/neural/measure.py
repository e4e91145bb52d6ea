"""`campaign.py measure`: every distinct run of a plan for a few epochs on a small copy of its data,
and what the plan's full scale would then take (OUT/measure/estimate.md). Stdlib only."""
from __future__ import annotations

import datetime
import shutil
import socket
from pathlib import Path

from plan import Plan, Run, flag_value, merged, metrics, rave_default, replaced, run_dir


def full_scale(plan: Plan, run: Run) -> tuple[int, int, int]:
    """Training and validation problems and the most epochs of `run` at the plan's scale."""
    per_config = int(flag_value(plan.data[run.data], ("-n", "--num-samples"), "0"))
    val = int(flag_value(plan.data[run.data], ("--val",), rave_default(plan, "generate", "--val")))
    test = int(flag_value(plan.data[run.data], ("--test",), rave_default(plan, "generate", "--test")))
    configs = 7  # the plan's data are all seven configurations
    train = per_config * (10 - val - test) // 10
    flags = merged(plan.defaults, run.flags)
    limit = int(flag_value(flags, ("--train-limit",), "0"))
    epochs = int(flag_value(flags, ("-e", "--epochs"), rave_default(plan, "train", "--epochs")))
    return configs * (min(train, limit) if limit else train), configs * per_config * val // 10, epochs


def measure_one(small, run: Run, n: int, limit: int) -> tuple[dict, float] | None:
    """The last epoch's record of a short run and its validation rate (problems/s)."""
    shutil.rmtree(run_dir(small.out, run.name), ignore_errors=True)
    if small.start(run).wait() != 0:
        small.say(f"FAILED {run.name} (log in {small.out / 'logs'})")
        return None
    last = metrics(small.out, run.name)[-1]
    trained = 7 * min(limit, n * 6 // 10)
    val_seconds = max(last["seconds"] - trained / last["train_problems_per_s"], 1e-9)
    return last, 7 * n * 2 // 10 / val_seconds


def measure(c, n: int, epochs: int, limit: int, overrides: dict[str, str], only: list[str]) -> int:
    work = c.out / "measure"
    work.mkdir(parents=True, exist_ok=True)
    small = type(c)(Plan(c.plan.path), work, c.rave, 1)  # a Campaign of the small copy
    small.plan.data = {k: replaced(v, {"-n": str(n)}) for k, v in c.plan.data.items()}
    small.plan.defaults = replaced(c.plan.defaults, {"--epochs": None, "-e": str(epochs),
                                                     "--patience": "0", **overrides})
    runs = [r for r in c.plan.runs.values() if r.kind == "rave" and (not only or any(Path(r.name).match(p) for p in only))]
    for name in dict.fromkeys(r.data for r in runs):
        small.ensure_data(name)
    lines = [f"# Short runs of {c.plan.path.name}: {epochs} epochs on {n} problems per configuration"
             f" (training limited to {limit} per configuration), {socket.gethostname()}, "
             f"{datetime.datetime.now().astimezone().isoformat(timespec='seconds')}", "",
             "| run | train problems/s | val problems/s | full scale: train + val problems | s per epoch |"
             " hours at most (all epochs) |", "|---|---:|---:|---:|---:|---:|"]
    total, failed = 0.0, []
    measured: dict[tuple, tuple[dict, float] | None] = {}  # runs that differ only in the seed run once
    for run in runs:
        drop = {"-e": None, "--epochs": None, "--patience": None, **{k: None for k in overrides}}
        flags = replaced(run.flags, {**drop, "--train-limit": str(min(limit, n))})
        key = (run.data, tuple(replaced(flags, {"-s": None, "--seed": None})))
        if key not in measured:
            measured[key] = measure_one(small, Run(run.name, run.data, flags), n, limit)
        if measured[key] is None:  # the other rows are still measured: one failure costs one row
            failed.append(run.name)
            lines.append(f"| {run.name} | FAILED (log in {small.out / 'logs'}) | | | | |")
            continue
        last, val_rate = measured[key]
        train_full, val_full, most = full_scale(c.plan, run)
        per_epoch = train_full / last["train_problems_per_s"] + val_full / val_rate
        total += most * per_epoch
        lines.append(f"| {run.name} | {last['train_problems_per_s']:.0f} | {val_rate:.0f} | "
                     f"{train_full:,} + {val_full:,} | {per_epoch:.0f} | {most * per_epoch / 3600:.2f} |")
        (work / "estimate.md").write_text("\n".join(lines) + "\n")  # the rows so far, if stopped
    lines += ["", f"All runs, one after another, every epoch allowed: {total / 3600:.1f} hours at most "
              "(early stopping ends most runs sooner). Rates are of the last short epoch, the decoded "
              "problems cached."]
    if failed:
        lines.append(f"Failed, not in the total: {' '.join(failed)}.")
    (work / "estimate.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 1 if failed else 0


