#!/usr/bin/env python3
"""Issue 11's statistics for the variants (docs/variants.md): for each setting and answer strategy,
`rave generate` N problems per configuration (symbolic only: the solver reads the XML), then
`rave check` with the heuristic and with the Z3 backend. Prints one markdown row per (setting,
strategy, backend): problems, answered (the posterior's first choice is the answer), provably
ambiguous share, failures, and the context-blind accuracy.

    .venv/bin/python scripts/variant_statistics.py build/apps/rave 1000 /tmp/variant-stats
"""
import pathlib
import re
import shutil
import subprocess
import sys
import time

SETTINGS = {
    "grid 5": ["--grid", "5"],
    "grid 10": ["--grid", "10"],
    "values 100": ["--values", "100"],
    "confounders 5": ["--confounders", "5"],
}
STRATEGIES = ["raven", "iraven", "fair"]


def check_table(rave, folder, backend):
    out = subprocess.run([rave, "check", str(folder), "-b", backend, "-j", "2"], capture_output=True, text=True)
    rows = {}
    for line in out.stdout.splitlines():
        m = re.match(r"^(\S.*?)\s{2,}([-\d.]+)((?:\s+[-\d.]+){7})\s*$", line)
        if m:
            rows[m.group(1).strip()] = float(m.group(2))
    return rows


def main():
    rave, n, work = sys.argv[1], int(sys.argv[2]), pathlib.Path(sys.argv[3])
    print("| setting | answers | backend | problems | answered | ambiguous | failed | context-blind | check s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, options in SETTINGS.items():
        for strategy in STRATEGIES:
            folder = work / f"{name.replace(' ', '')}-{strategy}"
            shutil.rmtree(folder, ignore_errors=True)
            subprocess.run([rave, "generate", "-n", str(n), "-o", str(folder), "--answers", strategy, "--symbolic-only",
                            "-j", "2", *options], check=True, capture_output=True)
            for backend in ["heuristic", "z3"]:
                start = time.time()
                r = check_table(rave, folder, backend)
                seconds = time.time() - start
                wrong = r["answer unexplained"] + r["answer not ranked 1st"]
                answered = 100.0 * (r["with target"] - wrong) / r["with target"]
                ambiguous = 100.0 * r["ambiguous (no rules)"] / r["problems"]
                print(f"| {name} | {strategy} | {backend} | {int(r['problems'])} | {answered:.2f}% | {ambiguous:.2f}% "
                      f"| {int(r['failed'])} | {r['context-blind acc %']:.2f}% | {seconds:.1f} |", flush=True)
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
