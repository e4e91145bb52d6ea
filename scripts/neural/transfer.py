"""`campaign.py import SRC`: runs trained in another campaign folder (another machine's: a GPU
machine, a cluster node) brought into this one, so that `run` here resumes or reports them.

A run is taken when SRC has more epochs of it than this folder, and only when SRC trained it on the
same data (the same `rave generate` command and files in both rave.json), and when each of its
checkpoints reads back whole (every member's CRC-32, as `rave` checks them). Its folder replaces this
one's, its log is appended to this one's, and OUT/imports.jsonl records what came from where: the
run, the epochs, the first of them trained there (a run carried there from here and continued keeps
this machine's first epochs), SRC's machines (from SRC's sittings.jsonl). `status` then counts the
epochs trained there as the other machines' time, not this machine's CPU-hours. Stdlib only.
"""
from __future__ import annotations

import datetime
import json
import shutil
import zipfile
from pathlib import Path

from plan import Plan, PlanError, metrics, read_jsonl, run_dir, run_log, sittings


def data_fingerprint(folder: Path) -> tuple | None:
    """What a run's data are, as far as resume cares: the generate command and the files."""
    manifest = folder / "rave.json"
    if not manifest.exists():
        return None
    try:
        m = json.loads(manifest.read_text())
    except json.JSONDecodeError as e:
        raise PlanError(f"{manifest}:{e.lineno}: not JSON ({e.msg} at column {e.colno})") from None
    return json.dumps(m.get("command")), json.dumps(m.get("files"))


def imported(out: Path) -> list[dict]:
    return read_jsonl(out / "imports.jsonl")


def imported_epochs(out: Path) -> dict[str, set[int]]:
    """Per run, which of its epochs (0-based) were trained elsewhere, over all its imports."""
    epochs: dict[str, set[int]] = {}
    for record in imported(out):
        epochs.setdefault(record["run"], set()).update(range(record.get("first", 0), record["epochs"]))
    return epochs


def shared_epochs(ours: list[dict], theirs: list[dict]) -> int:
    """How many first epochs SRC's run has from this folder's (it was carried there and resumed)."""
    return len(ours) if theirs[:len(ours)] == ours else 0


def import_runs(plan: Plan, out: Path, src: Path, only: list[str], say) -> int:
    if not (src / "runs").is_dir():
        raise PlanError(f"{src} holds no runs/ folder: give the other machine's campaign folder")
    if src.resolve() == out.resolve():
        raise PlanError(f"{src} is this campaign's own folder")
    hosts = sorted({f"{s['host']} ({s['cores']} cores)" for s in sittings(src)}) or ["unknown"]
    taken = 0
    for run in plan.runs.values():
        if only and not any(Path(run.name).match(p) for p in only):
            continue
        theirs, ours = metrics(src, run.name), metrics(out, run.name)
        if not theirs:
            continue
        if len(theirs) <= len(ours):
            say(f"import: {run.name}: here {len(ours)} epochs, {src} {len(theirs)}: kept")
            continue
        mine, other = data_fingerprint(out / "data" / run.data), data_fingerprint(src / "data" / run.data)
        if other is None or (mine is not None and mine != other):
            raise PlanError(f"import: {run.name}: {src / 'data' / run.data / 'rave.json'} "
                            + ("is missing" if other is None else "describes other data than this campaign's")
                            + "; nothing was imported from it")
        copy_run(src, out, run.name)
        first = shared_epochs(ours, theirs)
        record = {"run": run.name, "epochs": len(theirs), "first": first,
                  "seconds": sum(m["seconds"] for m in theirs[first:]),
                  "done": (run_dir(out, run.name) / "test.md").exists(), "from": str(src),
                  "machines": hosts, "at": datetime.datetime.now().astimezone().isoformat(timespec="seconds")}
        with (out / "imports.jsonl").open("a") as f:
            f.write(json.dumps(record) + "\n")
        say(f"import: {run.name}: {len(theirs)} epochs from {src} ({', '.join(hosts)}"
            + (f"; epochs {first + 1}-{len(theirs)} trained there)" if first else ")")
            + (", finished" if record["done"] else ", to be resumed here"))
        taken += 1
    say(f"import: {taken} runs taken from {src}")
    return 0


def damage(checkpoint: Path) -> str | None:
    """Why a checkpoint does not read back whole (a torch archive is a zip: each member's CRC-32)."""
    try:
        with zipfile.ZipFile(checkpoint) as z:
            bad = z.testzip()
        return None if bad is None else f"CRC mismatch in member {bad}"
    except (zipfile.BadZipFile, EOFError, OSError, ValueError) as e:
        return str(e) or type(e).__name__


def copy_run(src: Path, out: Path, name: str) -> None:
    """The run's folder replaced as a whole (a half-copied one is never left in its place), and
    never by a damaged checkpoint: the copy's are checked before it takes the place of this one's."""
    target = run_dir(out, name)
    staging = target.with_name(target.name + ".importing")
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(run_dir(src, name), staging)
    for checkpoint in sorted(staging.glob("*.pt")) + sorted(staging.glob("*.pth")):
        if why := damage(checkpoint):
            shutil.rmtree(staging, ignore_errors=True)
            raise PlanError(f"import: {run_dir(src, name) / checkpoint.name}: damaged checkpoint ({why}); "
                            f"nothing was imported from it")
    if target.exists():
        shutil.rmtree(target)
    staging.replace(target)
    log = run_log(src, name)
    if log.exists():
        dest = run_log(out, name)
        dest.parent.mkdir(parents=True, exist_ok=True)
        with dest.open("a") as f:
            f.write(log.read_text())
