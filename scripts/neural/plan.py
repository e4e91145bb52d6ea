"""A campaign's plan file (syntax: scripts/neural/table2.plan) and the run folders' records: parsing,
flag lookup and replacement, and the per-epoch metrics a run has written. Stdlib only."""
from __future__ import annotations

import json
import shlex
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

COLUMNS = ["Avg", "Center", "2x2Grid", "3x3Grid", "L-R", "U-D", "O-IC", "O-IG"]


class PlanError(Exception):
    pass


@dataclass
class Run:
    name: str
    data: str
    flags: list[str]
    kind: str = "rave"  # "rave": rave train FLAGS; "reference": reference_train.py FLAGS (the paper's code)


@dataclass
class Table:
    name: str
    data: str
    title: str
    rows: list[tuple[str, list[str]]] = field(default_factory=list)
    paper: dict[str, list[str]] = field(default_factory=dict)
    effects: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass
class Plan:
    path: Path
    data: dict[str, list[str]] = field(default_factory=dict)
    defaults: list[str] = field(default_factory=list)
    runs: dict[str, Run] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)
    # rave's own defaults per command ({"train": {"--epochs": "200", ...}}, rave_default), so that
    # neither the plan nor the scripts restate them: a plan leaves out a flag at its default.
    rave: Path | None = None
    # `published DIR`: the committed evidence of the plan's finished runs (campaign.py publish's
    # folder, relative to the repository); a run whose folder is not in the campaign folder but whose
    # evidence is there counts as done (published_run), so a fresh machine neither re-trains it nor
    # drops it from the tables.
    published: Path | None = None
    rave_defaults: dict[str, dict[str, str]] = field(default_factory=dict)


def rave_default(plan: Plan, command: str, flag: str) -> str:
    """rave's default of `flag` of `rave COMMAND`, from `rave COMMAND --print-defaults` (read once,
    when first needed: rave-train loads LibTorch)."""
    if command not in plan.rave_defaults:
        if plan.rave is None:
            raise PlanError(f"rave's defaults of `rave {command}` are needed, and no rave binary was given")
        done = subprocess.run([str(plan.rave), command, "--print-defaults"], capture_output=True, text=True)
        if done.returncode != 0:
            raise PlanError(f"{plan.rave} {command} --print-defaults failed: {done.stderr.strip()}")
        plan.rave_defaults[command] = json.loads(done.stdout)
    return plan.rave_defaults[command][flag]

def parse_plan(path: Path) -> Plan:
    plan = Plan(path)
    try:
        text = path.read_text()
    except OSError as e:
        raise PlanError(f"{path}: cannot read the plan: {e.strerror}") from e
    for number, line in enumerate(text.splitlines(), 1):
        try:
            words = shlex.split(line, comments=True)
        except ValueError as e:
            raise PlanError(f"{path}:{number}: {e}") from e
        if words:
            try:
                add_line(plan, words)
            except (PlanError, IndexError, KeyError) as e:
                detail = str(e) if isinstance(e, PlanError) else f"incomplete or unknown name: {e}"
                raise PlanError(f"{path}:{number}: {detail}") from e
    for table in plan.tables.values():
        for _, runs in table.rows:
            for r in runs:
                if r not in plan.runs:
                    raise PlanError(f"{path}: table {table.name} names the run {r}, which no line defines")
    return plan


def add_line(plan: Plan, words: list[str]) -> None:
    kind, rest = words[0], words[1:]
    if kind == "data":
        plan.data[rest[0]] = rest[1:]
    elif kind == "defaults":
        plan.defaults = rest
    elif kind == "published":
        plan.published = Path(__file__).resolve().parents[2] / rest[0]
    elif kind == "run":
        if rest[1] not in plan.data:
            raise PlanError(f"run {rest[0]}: no data line names {rest[1]}")
        plan.runs[rest[0]] = Run(rest[0], rest[1], rest[2:])
    elif kind == "reference":
        if rest[1] not in plan.data:
            raise PlanError(f"reference {rest[0]}: no data line names {rest[1]}")
        plan.runs[rest[0]] = Run(rest[0], rest[1], rest[2:], kind="reference")
    elif kind == "table":
        if rest[1] not in plan.data:
            raise PlanError(f"table {rest[0]}: no data line names {rest[1]}")
        plan.tables[rest[0]] = Table(rest[0], rest[1], " ".join(rest[2:]))
    elif kind == "row":
        plan.tables[rest[0]].rows.append((rest[1], rest[2:]))
    elif kind == "paper":
        if len(rest) != 2 + len(COLUMNS):
            raise PlanError(f"paper {rest[1]}: needs {len(COLUMNS)} figures ({', '.join(COLUMNS)})")
        plan.tables[rest[0]].paper[rest[1]] = rest[2:]
    elif kind == "effect":
        plan.tables[rest[0]].effects.append((rest[1], rest[2], rest[3]))
    else:
        raise PlanError(f"unknown line kind {kind!r} (data, defaults, published, run, reference, table, row, paper, effect)")


def run_dir(out: Path, name: str) -> Path:
    return out / "runs" / name


def run_log(out: Path, name: str) -> Path:
    """A run's training log: every sitting's `# TIME on HOST: COMMAND` header and rave train's output."""
    return out / "logs" / (name.replace("/", "-") + ".log")


def published_run(plan: Plan, out: Path, name: str) -> Path | None:
    """The published evidence of run `name` (runs/<name with - for />/ under the plan's `published`
    folder), when it is there and the campaign folder holds nothing of the run: a run trained or
    started here is this folder's, whatever was published."""
    if plan.published is None or (run_dir(out, name) / "test.md").exists() or metrics(out, name):
        return None
    folder = plan.published / "runs" / name.replace("/", "-")
    return folder if (folder / "answers.gz").exists() and (folder / "run.json").exists() else None


def read_jsonl(path: Path) -> list[dict]:
    """A JSON Lines file's records (metrics, sittings, imports); none when it does not exist."""
    if not path.exists():
        return []
    records = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise PlanError(f"{path}:{number}: not a JSON record ({e.msg} at column {e.colno})") from None
    return records


def metrics(out: Path, name: str) -> list[dict]:
    return read_jsonl(run_dir(out, name) / "metrics.jsonl")


def sittings(out: Path) -> list[dict]:
    """A campaign folder's sittings (sittings.jsonl): start, end, host and cores of each."""
    return read_jsonl(out / "sittings.jsonl")


def flag_value(flags: list[str], names: tuple[str, ...], default: str) -> str:
    value = default
    for i, word in enumerate(flags[:-1]):
        if word in names:
            value = flags[i + 1]
    return value

# rave train's short names, so that a run's `-e 50` overrides the defaults' `--epochs 200`.
SHORT = {"-b": "--batch-size", "-d": "--data", "-e": "--epochs", "-j": "--threads", "-m": "--model",
         "-o": "--out", "-s": "--seed"}


def flag_pairs(flags: list[str]) -> list[tuple[str, str | None]]:
    """(flag, value) pairs: a flag followed by a word that is not a flag takes it as its value."""
    pairs, i = [], 0
    while i < len(flags):
        takes = i + 1 < len(flags) and not flags[i + 1].startswith("--") and flags[i + 1] not in SHORT
        pairs.append((flags[i], flags[i + 1] if takes else None))
        i += 2 if takes else 1
    return pairs


def merged(defaults: list[str], flags: list[str]) -> list[str]:
    """The defaults, less every flag the run sets itself (by either name), then the run's flags: rave
    train takes each option once, so `defaults -e 200` and a run's `-e 50` would be refused."""
    own = {SHORT.get(f, f) for f, _ in flag_pairs(flags)}
    kept = [w for f, v in flag_pairs(defaults) if SHORT.get(f, f) not in own for w in (f, v) if w is not None]
    return kept + flags


def replaced(flags: list[str], values: dict[str, str]) -> list[str]:
    """`flags` with every flag named in `values` (and its value) dropped, then `values` appended."""
    out, skip = [], False
    for word in flags:
        if skip:
            skip = False
        elif word in values:
            skip = True
        else:
            out.append(word)
    return out + [w for flag, value in values.items() if value is not None for w in (flag, value)]


def pending_checkpoints(plan: Plan, out: Path) -> list[tuple[int, list[str]]]:
    """(bytes, files relative to `out`) of each unfinished run's checkpoints, in plan order: what a
    lease must carry to resume them (gpu_lease.sh)."""
    result = []
    for run in plan.runs.values():
        folder = run_dir(out, run.name)
        if (folder / "test.md").exists():
            continue
        # a reference run tests every epoch and keeps the best epoch's answers, so it needs last.pth
        # alone; a rave run tests best.pt at its end
        names = ["last.pth"] if run.kind == "reference" else ["last.pt", "best.pt"]
        files = [folder / n for n in names if (folder / n).is_file()]
        if files:
            result.append((sum(p.stat().st_size for p in files), [str(p.relative_to(out)) for p in files]))
    return result


if __name__ == "__main__":
    import sys
    if len(sys.argv) != 4 or sys.argv[1] != "pending-checkpoints":
        sys.exit("usage: plan.py pending-checkpoints PLAN DIR")
    for size, files in pending_checkpoints(parse_plan(Path(sys.argv[2])), Path(sys.argv[3])):
        print(size, *files)
