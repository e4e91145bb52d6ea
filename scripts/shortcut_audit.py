#!/usr/bin/env python3
"""The two shortcut audits of `rave check` (docs/answer-sets.md) over the variants, the table of
docs/variants.md#shortcuts: for 3x3 and 10x10 matrices, the original tables and --values 10, 100
and 1000, and each answer strategy, `rave generate` N problems per configuration (symbolic only
where images cannot be drawn) and read the context-blind and values-seen accuracies (all
configurations; chance 12.5%) from `rave check`. One markdown row per (matrix, values), one column
pair per strategy.

    .venv/bin/python scripts/shortcut_audit.py build/apps/rave 1000 /tmp/shortcuts [CHECKER]

CHECKER, when given, is the rave that runs `rave check` (to audit another rave's output).
"""
import pathlib
import re
import shutil
import subprocess
import sys

GRIDS = [3, 10]
VALUES = [None, 10, 100, 1000]
STRATEGIES = ["raven", "iraven", "fair"]


def audits(rave, folder):
    out = subprocess.run([rave, "check", str(folder), "-j", "2", "--allow-extra"], capture_output=True,
                         text=True)
    rows = {}
    for line in out.stdout.splitlines():
        m = re.match(r"^(context-blind|values-seen) acc %\s+([\d.]+)", line)
        if m:
            rows[m.group(1)] = float(m.group(2))
    if len(rows) != 2:
        raise SystemExit(f"rave check {folder}: no audit rows\n{out.stdout[-2000:]}{out.stderr[-2000:]}")
    return rows


def main():
    rave, n, work = sys.argv[1], int(sys.argv[2]), pathlib.Path(sys.argv[3])
    checker = sys.argv[4] if len(sys.argv) > 4 else rave
    head = " | ".join(f"{s} blind | {s} seen" for s in STRATEGIES)
    print(f"| matrix | values | {head} |")
    print("|---|---|" + "---:|" * (2 * len(STRATEGIES)))
    for grid in GRIDS:
        for values in VALUES:
            cells = []
            for strategy in STRATEGIES:
                folder = work / f"g{grid}-v{values}-{strategy}"
                shutil.rmtree(folder, ignore_errors=True)
                options = ["--grid", str(grid)] if grid != 3 else []
                if values:
                    options += ["--values", str(values)]
                if values and values > 5:
                    options += ["--symbolic-only"]
                subprocess.run([rave, "generate", "-n", str(n), "-o", str(folder), "-a", strategy,
                                "-j", "2", "--seed", "2028", *options], check=True, capture_output=True)
                a = audits(checker, folder)
                cells += [f"{a['context-blind']:.2f}", f"{a['values-seen']:.2f}"]
                shutil.rmtree(folder, ignore_errors=True)
            label = "original" if values is None else str(values)
            print(f"| {grid}x{grid} | {label} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
