"""What the task folders share: rave's own command line for the prompts and images (so the harnesses
see the texts `rave export` and `rave show --vlm` write, character for character), JSON Lines, and a
folder written whole under a temporary name and renamed into place."""
import contextlib
import json
import os
import shutil
import subprocess
import sys

LETTERS = "ABCDEFGH"
MARKER = "rave-harness.json"  # names a folder as one of these (so a new export may replace it)


class HarnessError(Exception):
    """A bad input or a failed step, as one line `rave: error: ...` (exit code 1)."""


def run_rave(args):
    """Runs the rave executable beside the package; its error line is passed on as HarnessError."""
    from rave.__main__ import executable
    result = subprocess.run([str(executable())] + [str(a) for a in args], capture_output=True, text=True)
    if result.returncode != 0:
        lines = [line for line in result.stderr.splitlines() if line.strip()]
        message = lines[-1] if lines else f"rave {args[0]} exited with {result.returncode}"
        raise HarnessError(message.removeprefix("rave: error: "))
    return result


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def write_jsonl(path, rows):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def write_text(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def configurations(rows):
    """The configurations of the rows in their first-seen order (rave's files come in CONFIGS order)."""
    seen = []
    for row in rows:
        if row["configuration"] not in seen:
            seen.append(row["configuration"])
    return seen


def keep_split(rows, split):
    """The rows of one split ("train", "val", "test"), or all of them for None."""
    if split is None:
        return rows
    kept = [r for r in rows if r.get("split") == split]
    if not kept:
        raise HarnessError(f"no problem of split '{split}' in the set")
    return kept


def check_answers(rows, source):
    """Every row must carry its answer: the harnesses score against it."""
    for row in rows:
        if row.get("answer") is None:
            raise HarnessError(f"{source}: problem {row['id']} has no known answer (a harness folder needs it)")


@contextlib.contextmanager
def staged_folder(out):
    """Yields a temporary folder beside `out`, renamed to `out` when the block ends without error. `out`
    may not exist, be empty, or be a previous task folder (it is then replaced whole)."""
    out = os.path.abspath(out)
    if os.path.exists(out):
        if not os.path.isdir(out):
            raise HarnessError(f"{out}: exists and is no folder")
        if os.listdir(out) and not os.path.isfile(os.path.join(out, MARKER)):
            raise HarnessError(f"{out}: holds other files; give a new or empty folder (or a previous task folder)")
    parent = os.path.dirname(out)
    os.makedirs(parent, exist_ok=True)
    tmp = os.path.join(parent, f".{os.path.basename(out)}.tmp.{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    try:
        yield tmp
        if os.path.exists(out):
            old = tmp + ".old"
            os.rename(out, old)
            os.rename(tmp, out)
            shutil.rmtree(old)
        else:
            os.rename(tmp, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def write_marker(folder, harness, command, counts, **options):
    import rave
    info = {"harness": harness, "rave_version": rave.__version__, "command": command,
            "problems": sum(counts.values()), "per_configuration": counts, **options}
    write_text(os.path.join(folder, MARKER), json.dumps(info, indent=2) + "\n")


def counts_of(rows):
    counts = {}
    for row in rows:
        counts[row["configuration"]] = counts.get(row["configuration"], 0) + 1
    return counts


def command_line():
    return " ".join(["rave"] + sys.argv[1:])
