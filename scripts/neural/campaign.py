#!/usr/bin/env python3
"""A training campaign that outlives a sitting: the runs of a plan file, resumable on any machine.

    scripts/neural/campaign.py run     [--plan P] [--out DIR] [--slots N] [--set=F=V]  # what is missing, then report
    scripts/neural/campaign.py status  [--plan P] [--out DIR]               # where every run stands
    scripts/neural/campaign.py report  [--plan P] [--out DIR]               # tables from finished runs
    scripts/neural/campaign.py publish [--plan P] [--out DIR] DEST          # the small files, for git
    scripts/neural/campaign.py measure [--plan P] [--out DIR] [--n 1000]    # short runs: time per row (measure.py)
    scripts/neural/campaign.py import  [--plan P] [--out DIR] SRC           # runs from another machine's folder

The plan (scripts/neural/table2.plan documents the syntax) names datasets by their `rave generate`
flags, runs by their `rave train` flags, and tables by their rows. `run` regenerates a missing
dataset from its seed, checks every file of a present one against its rave.json (`rave generate
--resume`), skips finished runs (test.md), continues interrupted ones from last.pt (`--resume`, which
also checks the checkpoint's data identity: the same rave.json content, wherever it lies), and runs
the rest in plan order, --slots at a time. Only OUT/runs/*/last.pt and best.pt carry state between
machines; copy OUT/runs (and OUT/sittings.jsonl, for the wall-time account) and run again, or
bring another machine's runs back with `import` (transfer.py). Stdlib only: any Python 3.9+.
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import datetime
import fcntl
import functools
import itertools
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import evidence
from measure import measure
from transfer import import_runs, imported_epochs
from plan import (COLUMNS, Plan, PlanError, Run, Table, flag_value, metrics, merged, parse_plan, published_run,
                  rave_default, replaced, run_dir, run_log, sittings)

ROOT = Path(__file__).resolve().parents[2]


def run_state(plan: Plan, out: Path, run: Run, elsewhere: set[int] = frozenset()) -> dict:
    """Where `run` stands; its epochs numbered (0-based) in `elsewhere` were trained on another
    machine (imported)."""
    flags = merged(plan.defaults, run.flags) if run.kind == "rave" else run.flags
    published = published_run(plan, out, run.name)
    # A published run's epochs come from its committed curve, trained on a machine that is not this one.
    history = published_curve(plan, run.name) if published else metrics(out, run.name)
    if published:
        elsewhere = set(range(len(history)))
    done = (run_dir(out, run.name) / "test.md").exists()
    best = best_epoch(history)
    epochs = int(flag_value(flags, ("-e", "--epochs"), rave_default(plan, "train", "--epochs")))
    patience = int(flag_value(flags, ("--patience",),
                              rave_default(plan, "train", "--patience") if run.kind == "rave" else "20"))
    threads = int(flag_value(flags, ("-j", "--threads"), str(os.cpu_count() or 1)))
    seconds = sum(m["seconds"] for m in history)
    mine = [m for i, m in enumerate(history) if i not in elsewhere]  # this machine's epochs
    here = sum(m["seconds"] for m in mine)
    state = "done" if done else ("running or interrupted" if history else "not started")
    if not history and plan.published is not None:
        state += unfinished_elsewhere(plan, run.name)
    if published:  # finished on a machine whose folder is gone; its evidence is committed
        record = json.loads((published / "run.json").read_text())
        state, done = f"done (published: {shown(published)})", True
    most = epochs - len(history)  # every epoch allowed
    # If no later epoch validates better, early stopping ends the run `patience` epochs after its best.
    least = min(most, patience - (len(history) - best["epoch"])) if best and patience else most
    return {
        "run": run.name,
        "state": state,
        "epochs": record.get("epochs", 0) if published else len(history),
        "max_epochs": epochs,
        "best_epoch": record.get("best_epoch") if published else best["epoch"] if best else None,
        "best_val": best["val_accuracy"] if best else None,
        "last_val": history[-1]["val_accuracy"] if history else None,
        "epochs_left_least": 0 if done else max(least, 0),
        "epochs_left_most": 0 if done else max(most, 0),
        "seconds": seconds,
        "seconds_here": here,
        "seconds_elsewhere": 0.0 if published else seconds - here,
        "seconds_published": seconds if published else 0.0,
        "threads": threads,
        "seconds_per_epoch": seconds / len(history) if history else None,
        "seconds_per_epoch_here": here / len(mine) if mine else None,
        "train_rate": median([m["train_problems_per_s"] for m in history[1:]] or
                             [m["train_problems_per_s"] for m in history]),
    }


def best_epoch(history: list[dict]) -> dict | None:
    """The epoch with the best validation accuracy, the earliest of equals (as rave train keeps it)."""
    return max(history, key=lambda m: (m["val_accuracy"], -m["epoch"]), default=None)


def unfinished_elsewhere(plan: Plan, name: str) -> str:
    """For a run with no epochs here: the partial curve a publication committed of it (an earlier
    sitting on another machine), whose checkpoint did not travel; empty when there is none."""
    partial = published_curve(plan, name)
    if not partial:
        return ""
    best = best_epoch(partial)
    return (f" here (published partial curve: {len(partial)} epochs, best {best['epoch']} at "
            f"{100 * best['val_accuracy']:.2f}; its last.pt stayed where it trained)")


def published_curve(plan: Plan, name: str) -> list[dict]:
    """The epochs of a published run, from its committed curve (curves/<name with - for />.csv):
    the figures status shows; none when the publication has no curve."""
    path = plan.published / "curves" / (name.replace("/", "-") + ".csv")
    if not path.exists():
        return []
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    try:
        return [{"epoch": int(r["epoch"]), "seconds": float(r["seconds"]), "val_accuracy": float(r["val_accuracy"]),
                 "train_problems_per_s": float(r["train_problems_per_s"])} for r in rows]
    except (KeyError, TypeError, ValueError) as e:
        raise PlanError(f"{path}: not a curve of epochs ({e})") from None


def shown(path: Path) -> Path:
    """`path` relative to the repository when it lies in it."""
    return path.resolve().relative_to(ROOT) if path.resolve().is_relative_to(ROOT) else path


def median(values: list[float]) -> float | None:
    if not values:
        return None
    s = sorted(values)
    mid = len(s) // 2
    return s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2


def hours(seconds: float) -> str:
    return f"{seconds / 3600:.2f}"


def status_text(plan: Plan, out: Path) -> str:
    elsewhere = imported_epochs(out)
    states = [run_state(plan, out, r, elsewhere.get(r.name, set())) for r in plan.runs.values()]
    lines = [f"# Campaign status: {plan.path.name} in {shown(out)}", "",
             f"As of {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}.", "",
             "| run | state | epochs | best epoch (val %) | last val % | epochs left (best stays / at most) |"
             " run hours | s/epoch | train problems/s |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for s in states:
        pct = lambda v: "" if v is None else f"{100 * v:.2f}"
        best = "" if s["best_epoch"] is None else f"{s['best_epoch']}" + (
            "" if s["best_val"] is None else f" ({pct(s['best_val'])})")
        per_epoch = "" if s["seconds_per_epoch"] is None else f"{s['seconds_per_epoch']:.0f}"
        rate = "" if s["train_rate"] is None else f"{s['train_rate']:.0f}"
        lines.append(f"| {s['run']} | {s['state']} | {s['epochs']}/{s['max_epochs']} | {best} | "
                     f"{pct(s['last_val'])} | {s['epochs_left_least']} / {s['epochs_left_most']} | {hours(s['seconds'])} | "
                     f"{per_epoch} | {rate} |")
    done = sum(s["state"].startswith("done") for s in states)
    cpu = sum(s["seconds_here"] * s["threads"] for s in states)
    other = sum(s["seconds_elsewhere"] for s in states)
    def to_go(key: str) -> float:
        return sum((s["seconds_per_epoch_here"] or 0) * s[key] * s["threads"] for s in states)
    unknown = [s["run"] for s in states if s["state"].startswith("not started")]
    # Runs trained only elsewhere so far: their rate on this machine is not known yet.
    unmeasured = [s["run"] for s in states if not s["state"].startswith("done") and s["epochs"] and
                  s["seconds_per_epoch_here"] is None]
    wall = sum(max(0.0, x.get("end", x["start"]) - x["start"]) for x in sittings(out))
    lines += ["", f"Runs finished: {done} of {len(states)}. Training CPU-hours so far (epoch seconds x "
              f"threads, evaluation included): {hours(cpu)}. Campaign wall time over "
              f"{len(sittings(out))} sittings: {hours(wall)} h."]
    if other:
        lines += [f"Imported from other machines (imports.jsonl): {sum(map(len, elsewhere.values()))} epochs of "
                  f"{len(elsewhere)} runs, {hours(other)} h of their epoch time, not counted above."]
    carried = [s for s in states if s["seconds_published"]]
    if carried:
        lines += [f"Published runs, carried from their committed curves ({shown(plan.published)}): "
                  f"{sum(s['epochs'] for s in carried)} epochs of {len(carried)} runs, "
                  f"{hours(sum(s['seconds_published'] for s in carried))} h of their epoch time, not counted above."]
    lines += [f"CPU-hours still to go for the started runs, at their own rate here: "
              f"{hours(to_go('epochs_left_least'))} if no run finds a better epoch, at most "
              f"{hours(to_go('epochs_left_most'))} (every epoch allowed); not started: {len(unknown)} runs"
                + (f"; not yet trained here (imported, rate here unknown): {len(unmeasured)} runs." if unmeasured
                   else ".")]
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------------------------
# Running.


class Campaign:
    def __init__(self, plan: Plan, out: Path, rave: Path, slots: int, reference_code: Path | None = None,
                 overrides: dict[str, str] | None = None):
        self.plan, self.out, self.rave, self.slots = plan, out, rave, slots
        self.reference_code = reference_code
        self.overrides = overrides or {}  # --set: rave train flags replaced in every rave run
        self.keys: dict[str, bytes] = {}  # the answer key of each dataset here (published_predictions)
        self.log_path = out / "campaign.log"
        self.stopping = False

    def say(self, message: str) -> None:
        line = f"[{datetime.datetime.now().strftime('%F %T')}] {message}"
        print(line, flush=True)
        with self.log_path.open("a") as log:
            log.write(line + "\n")

    def data_dir(self, name: str) -> Path:
        return self.out / "data" / name

    def ensure_data(self, name: str) -> None:
        """Generates what is missing and checks every present file against rave.json."""
        self.say(f"data {name}: rave generate {' '.join(self.plan.data[name])} (--resume: files "
                 "checked against rave.json, missing ones generated)")
        cmd = [str(self.rave), "generate", *self.plan.data[name], "-o", str(self.data_dir(name)),
               "--resume", "-j", str(os.cpu_count() or 1)]
        if subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode != 0:
            raise PlanError(f"data {name}: rave generate failed (its message is above)")

    def train_command(self, run: Run) -> list[str]:
        directory = run_dir(self.out, run.name)
        if run.kind == "reference":  # the paper's own code (reference_train.py resumes by itself)
            if not self.reference_code or not (self.reference_code / "src" / "model" / "cnn_mlp.py").exists():
                raise PlanError(f"run {run.name}: the reference's code (a WellyZhang/RAVEN checkout) is not at "
                                f"{self.reference_code} (give --reference-code or RAVE_REFERENCE_CODE)")
            return [sys.executable, str(ROOT / "scripts/neural/reference_train.py"), "--code",
                    str(self.reference_code), "--data", str(self.data_dir(run.data)), "--out", str(directory),
                    *run.flags]
        flags = replaced(merged(self.plan.defaults, run.flags), self.overrides)
        init = flag_value(flags, ("--init-weights",), "")
        if init:  # a relative path is the campaign folder's, so it travels with the runs (gpu_lease.sh)
            flags = replaced(flags, {"--init-weights": str(self.out / init)})
            if not (self.out / init).exists():
                raise PlanError(f"run {run.name}: its --init-weights file {self.out / init} does not exist "
                                "(the plan's comment above the run says which command makes it)")
        cmd = [str(self.rave), "train", *flags, "-d", str(self.data_dir(run.data)), "-o", str(directory)]
        return cmd + (["--resume"] if (directory / "last.pt").exists() else [])

    def start(self, run: Run) -> subprocess.Popen:
        log = run_log(self.out, run.name)
        log.parent.mkdir(parents=True, exist_ok=True)
        cmd = self.train_command(run)
        self.say(f"start {run.name}: {shlex.join(cmd)}")
        if log.exists() and not resumable(run_dir(self.out, run.name)):
            # the run begins again (its folder was removed or never reached an epoch): the sittings of
            # before left nothing in it, so their headers leave the log that run.json's commands read
            old = next(log.with_name(f"{log.name}.{i}") for i in itertools.count(1)
                       if not log.with_name(f"{log.name}.{i}").exists())
            log.replace(old)
            self.say(f"{run.name} starts afresh: its earlier log is {old}")
        with log.open("a") as f:
            f.write(f"\n# {datetime.datetime.now().isoformat()} on {machine()}: "
                    f"{shlex.join(cmd)}\n")
            f.flush()
            return subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, start_new_session=True)

    def pending(self, only: list[str]) -> list[Run]:
        runs = [r for r in self.plan.runs.values()
                if not (run_dir(self.out, r.name) / "test.md").exists() and not published_run(self.plan, self.out, r.name)]
        return [r for r in runs if not only or any(Path(r.name).match(p) for p in only)]

    def run(self, only: list[str], sitting: Sitting) -> int:
        todo = self.pending(only)
        unstartable = []
        for r in todo:  # a run that cannot start (no reference code, no initial weights): said now, the rest run
            try:
                self.train_command(r)
            except PlanError as e:
                print(f"campaign: error: {e}", file=sys.stderr, flush=True)
                unstartable.append(r.name)
        todo = [r for r in todo if r.name not in unstartable]
        # the data of the runs to do (a GPU lease regenerates each set it trains on, 20 s apiece);
        # report() skips a table whose data is not here
        for name in dict.fromkeys([r.data for r in todo] or [t.data for t in self.plan.tables.values()]):
            self.ensure_data(name)
        self.say(f"{len(todo)} runs to do, {self.slots} at a time: {' '.join(r.name for r in todo)}")
        active: dict[subprocess.Popen, tuple[Run, float]] = {}
        failed: list[str] = []

        def stop(signum, _frame):
            self.stopping = True
            for p in active:
                os.killpg(p.pid, signal.SIGTERM)
        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        while (todo and not self.stopping) or active:
            while todo and len(active) < self.slots and not self.stopping:
                run = todo.pop(0)
                active[self.start(run)] = (run, time.time())
            time.sleep(1)
            sitting.update()
            for p in [p for p in active if p.poll() is not None]:
                run, began = active.pop(p)
                ok = p.returncode == 0 and (run_dir(self.out, run.name) / "test.md").exists()
                verb = "done" if ok else ("stopped" if self.stopping else f"FAILED (exit {p.returncode})")
                self.say(f"{verb} {run.name} after {time.time() - began:.0f} s")
                if not ok and not self.stopping:
                    failed.append(run.name)
        if failed:
            self.say(f"failed runs (logs in {self.out / 'logs'}): {' '.join(failed)}")
        if unstartable:
            self.say(f"runs that could not start: {' '.join(unstartable)}")
        return 1 if failed or unstartable or self.stopping else 0


class Sitting:
    """This sitting's line of OUT/sittings.jsonl, its end moved forward every minute, so a machine
    that stops without warning leaves its wall time counted to within a minute."""

    def __init__(self, out: Path, runs: int):
        self.path, self.start, self.last = out / "sittings.jsonl", time.time(), 0.0
        self.before = self.path.read_text() if self.path.exists() else ""
        self.record = {"start": self.start, "end": self.start, "host": machine(),
                       "cores": os.cpu_count(), "gpus": gpu_names(), "runs_to_do": runs}
        self.update(force=True)

    def update(self, force: bool = False) -> None:
        if not force and time.time() - self.last < 60:
            return
        self.last = self.record["end"] = time.time()
        temporary = self.path.with_suffix(".tmp")
        temporary.write_text(self.before + json.dumps(self.record) + "\n")
        temporary.replace(self.path)


# ----------------------------------------------------------------------------------------------
# Reports: predictions of every finished run, then rave score per table.


@functools.cache
def machine() -> str:
    """This host's name and CPU model, e.g. "vm (AMD EPYC)": a CPU run's figures depend on the CPU as
    well as the seed (the BLAS picks its kernels, and so its rounding, by CPU), so the evidence names it."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "")
    except OSError:
        model = ""
    model = re.sub(r"[()]", "", model) or "CPU unknown"
    return f"{socket.gethostname()} ({model})"


def gpu_names() -> list[str]:
    """This machine's GPUs as nvidia-smi names them (none without one)."""
    try:
        result = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                                capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return []
    return [line.strip() for line in result.stdout.splitlines() if line.strip()] if result.returncode == 0 else []


# The device `rave eval` answers the test split on for the published evidence: the CPU (fp32, the
# same answers on any machine) unless RAVE_EVAL_DEVICE names another.
EVAL_DEVICE = os.environ.get("RAVE_EVAL_DEVICE", "cpu")


def predictions(c: Campaign, run: Run) -> Path | None:
    published = published_run(c.plan, c.out, run.name)
    if published:
        return published_predictions(c, run, published)
    if not (run_dir(c.out, run.name) / "test.md").exists():
        return None
    if run.kind == "reference":  # reference_train.py answered with the best-validation weights
        return run_dir(c.out, run.name) / "predictions" / "best.jsonl"
    best = run_dir(c.out, run.name) / "best.pt"
    path = c.out / "predictions" / (run.name + ".jsonl")
    if not path.exists() or path.stat().st_mtime < best.stat().st_mtime:
        path.parent.mkdir(parents=True, exist_ok=True)
        cmd = [str(c.rave), "eval", str(best), "-d", str(c.data_dir(run.data)), "--no-solver",
               "--predictions", str(path), "-j", str(os.cpu_count() or 1), "--device", EVAL_DEVICE]
        subprocess.run(cmd, check=True, capture_output=True, text=True)
        (path.parent / (path.name + ".device")).write_text(EVAL_DEVICE + " on " + machine() + "\n")
    return path


def published_predictions(c: Campaign, run: Run, published: Path) -> Path:
    """A published run's answers (answers.gz, in the order of the publication's key) as the predictions
    file `rave score` reads, so its rows stay in the tables where its folder is gone."""
    key = c.plan.published / "keys" / f"{run.data}.tsv.gz"
    if run.data not in c.keys:  # this folder's key, once per dataset and command
        here = c.out / "predictions" / "published" / f"{run.data}.tsv.gz"
        here.parent.mkdir(parents=True, exist_ok=True)
        evidence.write_key(c.data_dir(run.data), here)
        c.keys[run.data] = here.read_bytes()
        here.unlink()
    if not key.exists() or key.read_bytes() != c.keys[run.data]:
        raise PlanError(f"run {run.name}: its published answers ({published}) are to a key other than "
                        f"{c.data_dir(run.data)}'s test split (another dataset under the name {run.data})")
    path = c.out / "predictions" / "published" / (run.name + ".jsonl")
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        answers = evidence.read_answers_text(published / "answers.gz", key)
    except (OSError, ValueError, EOFError) as e:
        raise PlanError(f"run {run.name}: its published evidence cannot be read: {e}") from None
    lines = [json.dumps({"id": i, "answer": None if a == "-" else int(a)})
             for i, a in zip(evidence.read_key_ids(key), answers)]
    path.write_text("\n".join(lines) + "\n")
    return path


def score(c: Campaign, table: Table, files: list[str], extra: list[str]) -> subprocess.CompletedProcess:
    cmd = [str(c.rave), "score", *files, "-d", str(c.data_dir(table.data)), "-j",
           str(os.cpu_count() or 1), *extra]
    return subprocess.run(cmd, check=True, capture_output=True, text=True)


def paired_effects(c: Campaign, table: Table, rows: dict[str, list[tuple[str, Path]]]) -> list[str]:
    """Each effect over the seeds both rows have finished: the k-th run a row lists pairs with the
    k-th of the other (the plan lists a row's seeds in one order), never the k-th finished, which a
    seed still running would shift."""
    listed = dict(table.rows)
    finished = {label: {listed[label].index(name): name for name, _ in runs} for label, runs in rows.items()}
    lines = []
    for label, a, b in table.effects:
        ka, kb = finished.get(a, {}), finished.get(b, {})
        pairs = [(ka[k], kb[k]) for k in sorted(ka.keys() & kb.keys())]
        if not pairs:
            continue
        # Each run's Avg as its own test.csv has it (the same answers, scored by rave train): no
        # second pass over the set's answer key.
        diffs = [test_average(c, ra) - test_average(c, rb) for ra, rb in pairs]
        lines.append(f"{label}, paired by seed: " + ", ".join(f"{d:+.2f}" for d in diffs) +
                     f" points; mean {mean_interval(diffs)}")
    return lines


def test_average(c: Campaign, run: str) -> float:
    """A finished run's test accuracy (%), Avg over all problems, from the first row of its test.csv
    (a published run's: the one published)."""
    with ((published_run(c.plan, c.out, run) or run_dir(c.out, run)) / "test.csv").open(newline="") as f:
        return float(next(csv.DictReader(f))["Avg"])


def mean_interval(values: list[float]) -> str:
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return f"{m:+.2f} (one seed, no interval)"
    sd = (sum((v - m) ** 2 for v in values) / (n - 1)) ** 0.5
    t = {2: 12.706, 3: 4.303, 4: 3.182, 5: 2.776, 6: 2.571, 7: 2.447, 8: 2.365, 9: 2.306, 10: 2.262}
    return f"{m:+.2f} ± {t.get(n, 1.96) * sd / n ** 0.5:.2f} (95% t, {n} seeds)"


def relative(text: str, out: Path) -> str:
    """Paths inside the campaign folder written relative to it, so published tables name no machine."""
    return text.replace(str(out.resolve()) + "/", "").replace(str(out) + "/", "")


def report(c: Campaign) -> None:
    tables = c.out / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    for table in c.plan.tables.values():
        if not (c.data_dir(table.data) / "rave.json").exists():
            c.say(f"table {table.name}: no data {table.data} here; skipped")
            continue
        rows: dict[str, list[tuple[str, Path]]] = {}
        for label, names in table.rows:
            for name in names:
                path = predictions(c, c.plan.runs[name])
                if path:
                    rows.setdefault(label, []).append((name, path))
        if not rows:  # nothing to show: no table, not an earlier report's
            for suffix in (".md", ".csv", ".png"):
                (tables / f"{table.name}{suffix}").unlink(missing_ok=True)
            continue
        files = [f"{label}={path}" for label, runs in rows.items() for _, path in runs]
        base = tables / table.name
        result = score(c, table, files, ["--seeds", "--title", table.title, "--csv", f"{base}.csv",
                                         "--chart", f"{base}.png"])
        text = [f"## {table.title}", "", result.stdout.rstrip(), ""]
        missing = [f"{label} ({len(rows.get(label, []))} of {len(names)} runs)"
                   for label, names in table.rows if len(rows.get(label, [])) < len(names)]
        if missing:
            text += ["Not finished yet: " + ", ".join(missing) + ".", ""]
        if table.paper:
            text += ["The paper (Table 2):", "", "| model | " + " | ".join(COLUMNS) + " |",
                     "|---|" + "---:|" * len(COLUMNS)]
            text += [f"| {label} | " + " | ".join(v) + " |" for label, v in table.paper.items()] + [""]
        effects = paired_effects(c, table, rows)
        text += [f"- {line}" for line in effects]
        (base.with_suffix(".md")).write_text(relative("\n".join(text).rstrip() + "\n", c.out))
        Path(f"{base}.csv").write_text(relative(Path(f"{base}.csv").read_text(), c.out))
        c.say(f"table {table.name}: {base}.md")
    (c.out / "status.md").write_text(status_text(c.plan, c.out))


def curves_csv(out: Path, run: str) -> str:
    """One line per epoch; with --log-test (or a reference run) the test columns too, for diagnosis
    only (test_correct / test_total: per configuration, space-separated, rave's order)."""
    history = metrics(out, run)
    tested = any("test_correct" in m for m in history)
    lines = ["epoch,train_loss,train_accuracy,val_loss,val_accuracy,seconds,train_problems_per_s,best,device" +
             (",test_loss,test_accuracy,test_correct,test_total" if tested else "")]
    for m in history:
        line = ",".join(str(m[k]) for k in ("epoch", "train_loss", "train_accuracy", "val_loss",
                                            "val_accuracy", "seconds", "train_problems_per_s"))
        line += f",{int(m['best'])},{m.get('device', '')}"
        if tested:
            line += (f",{m.get('test_loss', '')},{m.get('test_accuracy', '')},"
                     f"{' '.join(map(str, m.get('test_correct', [])))},{' '.join(map(str, m.get('test_total', [])))}")
        lines.append(line)
    return "\n".join(lines) + "\n"


def resumable(directory: Path) -> bool:
    """Whether a run folder holds a checkpoint its next start resumes from (rave's last.pt, the
    reference's last.pth)."""
    return (directory / "last.pt").exists() or (directory / "last.pth").exists()


def started_commands(out: Path, run: str) -> list[dict]:
    """Each sitting's command line of a run, from the `# TIME on HOST: COMMAND` lines Campaign.start
    writes into its log: what ran, where the plan's flags were replaced (run --set) or resolved."""
    log = run_log(out, run)
    lines = log.read_text(errors="replace").splitlines() if log.exists() else []
    found = [re.match(r"^# (\S+) on (\S+(?: \([^)]*\))?): (.+)$", line) for line in lines]
    return [{"time": m[1], "host": m[2], "command": m[3].replace(str(ROOT) + "/", "")} for m in found if m]


def publish_evidence(c: Campaign, dest: Path) -> None:
    """keys/, runs/<run>/{answers.gz, run.json, test.csv} and tables.json, then the tables rebuilt from
    them alone by rescore.py (<table>.md): what a reader re-derives every figure from."""
    tables = []
    gpus = sorted({g for s in sittings(c.out) for g in s.get("gpus", [])} | set(gpu_names()))
    for table in c.plan.tables.values():
        finished = [n for _, names in table.rows for n in names
                    if (run_dir(c.out, n) / "test.md").exists() or published_run(c.plan, c.out, n)]
        if not finished or not (c.data_dir(table.data) / "rave.json").exists():
            continue  # nothing of it finished, or its data is not here
        key = dest / "keys" / f"{table.data}.tsv.gz"
        evidence.write_key(c.data_dir(table.data), key)
        for _, names in table.rows:
            for name in names:
                run = c.plan.runs[name]
                folder = dest / "runs" / name.replace("/", "-")
                published = published_run(c.plan, c.out, name)
                if published:  # its committed evidence, as it is (report() checked it against the key)
                    if published.resolve() != folder.resolve():
                        shutil.copytree(published, folder, dirs_exist_ok=True)
                    continue
                path = predictions(c, run)
                if path is None:
                    continue
                evidence.write_answers(path, key, folder / "answers.gz")
                device_note = path.parent / (path.name + ".device")
                answers_device = (device_note.read_text().strip() if device_note.exists() else
                                  "the reference's run (its own device, metrics.jsonl)")
                done = run_dir(c.out, name) / "done.json"
                evidence.write_run_record(metrics(c.out, name), {
                    "run": name, "kind": run.kind, "data": run.data, "data_flags": c.plan.data[run.data],
                    "flags": merged(c.plan.defaults, run.flags) if run.kind == "rave" else run.flags,
                    "commands": started_commands(c.out, name),
                    "answers_device": answers_device,
                    "reference_summary": json.loads(done.read_text()) if done.exists() else None},
                    folder / "run.json", gpus)
                shutil.copy2(run_dir(c.out, name) / "test.csv", folder / "test.csv")
        tables.append({"name": table.name, "title": table.title, "data": table.data,
                       "rows": [[label, [n.replace("/", "-") for n in names]] for label, names in table.rows],
                       "effects": [list(e) for e in table.effects], "paper": table.paper})
    (dest / "tables.json").write_text(json.dumps(tables, indent=1) + "\n")
    subprocess.run([sys.executable, str(ROOT / "scripts/neural/rescore.py"), str(dest)], check=True,
                   capture_output=True, text=True)


def publish(c: Campaign, dest: Path) -> None:
    """The evidence and the tables rebuilt from it (publish_evidence), rave score's tables beside them
    (<table>.rave-score.md, .csv, .png: with the solver's and the context-blind rows), status and every
    run's curves (CSV and PNG): no checkpoint, no data."""
    report(c)
    dest.mkdir(parents=True, exist_ok=True)
    for f in sorted((c.out / "tables").glob("*")):
        if f.stem in c.plan.tables:  # not a table the plan has dropped
            shutil.copy2(f, dest / (f.stem + ".rave-score.md" if f.suffix == ".md" else f.name))
    shutil.copy2(c.out / "status.md", dest / "status.md")
    for run in c.plan.runs.values():
        stem = dest / "curves" / run.name.replace("/", "-")
        published = published_run(c.plan, c.out, run.name)
        if published:  # its published curves, where they are not the destination's already
            for f in (c.plan.published / "curves").glob(stem.name + ".*"):
                if f.resolve() != (stem.parent / f.name).resolve():
                    stem.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(f, stem.parent / f.name)
            continue
        if not metrics(c.out, run.name):
            continue
        stem.parent.mkdir(parents=True, exist_ok=True)
        stem.with_suffix(".csv").write_text(curves_csv(c.out, run.name))
        png = run_dir(c.out, run.name) / "curves.png"
        if png.exists():
            shutil.copy2(png, stem.with_suffix(".png"))
    publish_evidence(c, dest)
    drop_stale_tables(c, dest)
    c.say(f"published to {dest}")


def drop_stale_tables(c: Campaign, dest: Path) -> None:
    """A plan table with nothing to show loses the files an earlier publication in `dest` left for it,
    so no table outlives its rows (a row moved to another table, a run removed)."""
    rebuilt = {t["name"] for t in json.loads((dest / "tables.json").read_text())}
    scored = {f.stem for f in (c.out / "tables").glob("*.md")}
    for name in c.plan.tables:
        if name not in rebuilt:
            (dest / f"{name}.md").unlink(missing_ok=True)
        if name not in scored:
            for f in (f"{name}.rave-score.md", f"{name}.csv", f"{name}.png"):
                (dest / f).unlink(missing_ok=True)


@contextlib.contextmanager
def campaign_lock(out: Path):
    """One `run` or `import` at a time in a campaign folder (two would train or replace the same runs)."""
    with (out / "campaign.lock").open("a+") as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise PlanError(f"{out} is in use by another campaign.py run or import (campaign.lock); "
                            "stop it first") from None
        yield


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["run", "status", "report", "publish", "measure", "import"])
    parser.add_argument("dest", nargs="?", help="publish: the folder for the small files; "
                        "import: the other machine's campaign folder")
    parser.add_argument("--plan", type=Path, default=ROOT / "scripts/neural/table2.plan")
    parser.add_argument("--out", type=Path, default=ROOT / "out/table2")
    parser.add_argument("--slots", type=int, default=os.cpu_count() or 1,
                        help="runs side by side (default: the cores; each run's -j comes from the plan)")
    parser.add_argument("--rave", type=Path, default=Path(os.environ.get("RAVE", ROOT / "build/apps/rave")))
    parser.add_argument("--only", nargs="*", default=[], help="run only the runs matching these patterns")
    parser.add_argument("--reference-code", type=Path,
                        default=Path(os.environ.get("RAVE_REFERENCE_CODE", ROOT / ".gpu/ref/raven")),
                        help="a WellyZhang/RAVEN checkout, for the plan's `reference` runs")
    parser.add_argument("--n", type=int, default=1000, help="measure: problems per configuration")
    parser.add_argument("--epochs", type=int, default=2, help="measure: epochs of each short run")
    parser.add_argument("--train-limit", type=int, default=300,
                        help="measure: training problems per configuration of each short run")
    parser.add_argument("--set", action="append", default=[], metavar="FLAG=VALUE",
                        help="run, measure: replace a rave train flag of every rave run (--set=--device=cpu: a "
                             "CPU sitting of a plan written for GPUs)")
    a = parser.parse_args(argv)
    try:
        plan = parse_plan(a.plan)
        if not a.rave.exists():
            raise PlanError(f"no rave binary at {a.rave} (build it, or give --rave / RAVE=)")
        plan.rave = a.rave
        if a.command == "status":
            print(status_text(plan, a.out), end="")
            return 0
        if a.slots < 1:
            raise PlanError("--slots must be at least 1")
        a.out.mkdir(parents=True, exist_ok=True)
        overrides = dict(item.split("=", 1) for item in a.set if "=" in item)
        if len(overrides) != len(a.set):
            raise PlanError("--set takes FLAG=VALUE (--set=--device=cpu)")
        c = Campaign(plan, a.out, a.rave, a.slots, a.reference_code, overrides)
        if a.command == "measure":
            return measure(c, a.n, a.epochs, a.train_limit, overrides, a.only)
        if a.command == "import":
            if not a.dest:
                raise PlanError("import needs the other machine's campaign folder")
            with campaign_lock(a.out):
                return import_runs(plan, a.out, Path(a.dest), a.only, c.say)
        if a.command == "report":
            report(c)
            return 0
        if a.command == "publish":
            if not a.dest:
                raise PlanError("publish needs a destination folder")
            publish(c, Path(a.dest))
            return 0
        with campaign_lock(a.out):
            sitting = Sitting(a.out, len(c.pending(a.only)))
            try:
                code = c.run(a.only, sitting)
            finally:
                sitting.update(force=True)
        if c.stopping:
            return 1
        report(c)
        print(status_text(plan, a.out), end="")
        return code
    except PlanError as e:
        print(f"campaign: error: {e}", file=sys.stderr)
        return 1
    except subprocess.CalledProcessError as e:
        print(f"campaign: error: {shlex.join(map(str, e.cmd))} failed with exit {e.returncode}"
              f"{': ' + e.stderr.strip() if e.stderr else ''}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
