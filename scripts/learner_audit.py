#!/usr/bin/env python3
"""The learner audit's table of docs/answer-sets.md#what-the-audit-finds: for every answer strategy and
setting (3x3, 5x5, 10x10 with 1,000 levels, 3x3 with 3 confounders), `rave generate` N problems per
configuration (symbolic only: the features read the XML) and learn them with rave.shortcuts (cross-validated
by problem, 5 folds). One markdown row per (setting, strategy): the blind and bag learners over all
configurations with their 95% intervals, and the blind learner's highest configuration.

    nice -n 19 .venv/bin/python scripts/learner_audit.py build/apps/rave 1000 /work/scratch/audit [LEARNERS]

LEARNERS: comma-separated, default "logit" (the conditional logit; "logit,gbm" adds gradient boosting, slower).
--settings and --strategies (comma-separated, as the table names them) make part of the table; --seed
(default 2044, the table's) draws other problems, to tell a signal from one seed's fluctuation.
Each folder is deleted once learnt; a row is printed as soon as it is known.
"""
import argparse
import pathlib
import shutil
import subprocess

from rave import shortcuts

SETTINGS = {"3x3": [], "5x5": ["--grid", "5"], "10x10, 1000 levels": ["--grid", "10", "--values", "1000"],
            "3x3, 3 confounders": ["--confounders", "3"]}
# Settings beyond the table's, run when --settings names them: the original tables at 10 x 10 (where
# fallbacks are most frequent), a middle level count, and the generalization regimes.
MORE_SETTINGS = {"10x10": ["--grid", "10"], "5x5, 100 levels": ["--grid", "5", "--values", "100"],
                 "3x3, interpolation": ["--regime", "interpolation"],
                 "3x3, extrapolation": ["--regime", "extrapolation"],
                 "3x3, held-out-pairs": ["--regime", "held-out-pairs", "--hold-out", "Color:Progression"],
                 "3x3, held-out-attribute": ["--regime", "held-out-attribute", "--hold-out", "Color"]}
STRATEGIES = ["raven", "iraven", "fair", "balanced"]
PAPER = dict(zip(shortcuts._rave.CONFIGS, shortcuts._rave.PAPER_NAMES))


def tag(setting):
    """A setting as a folder name and a --settings value: 3x3, 5x5, 10x10-1000levels, 3x3-3confounders."""
    return setting.replace(" ", "").replace(",", "-")


def cell(c):
    return f"{100 * c['accuracy']:.1f} [{100 * c['interval'][0]:.1f}, {100 * c['interval'][1]:.1f}]"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rave")
    ap.add_argument("n", type=int, help="problems per configuration")
    ap.add_argument("work", type=pathlib.Path)
    ap.add_argument("learners", nargs="?", default="logit")
    ap.add_argument("--settings", default=",".join(map(tag, SETTINGS)),
                    help="of " + ", ".join(map(tag, {**SETTINGS, **MORE_SETTINGS}))
                    + " (default: the table's four)")
    ap.add_argument("--strategies", default=",".join(STRATEGIES))
    ap.add_argument("--seed", type=int, default=2044, help="rave generate's seed (default 2044)")
    args = ap.parse_args()
    rave, n, work, learners = args.rave, args.n, args.work, tuple(args.learners.split(","))
    every = {**SETTINGS, **MORE_SETTINGS}
    settings = [k for k in every if tag(k) in args.settings.split(",")]
    strategies = [s for s in args.strategies.split(",") if s in STRATEGIES]  # in the order given
    cols = [(v, ln) for v in shortcuts.VIEWS for ln in learners]
    print("| setting | answers | " + " | ".join(f"{v} {ln} %" for v, ln in cols) + " | highest blind configuration |")
    print("|---|---|" + "---:|" * (len(cols) + 1))
    for setting in settings:
        options = every[setting]
        for strategy in strategies:
            folder = work / f"{tag(setting)}-{strategy}"
            shutil.rmtree(folder, ignore_errors=True)
            subprocess.run([rave, "generate", "-n", str(n), "-o", str(folder), "-a", strategy, "-j", "2",
                            "--seed", str(args.seed), "--symbolic-only", *options], check=True, capture_output=True)
            r = shortcuts.audit([folder], threads=2, learners=learners)
            worst = max(r["configs"].items(), key=lambda kv: kv[1]["blind"][learners[0]]["accuracy"])
            cells = [cell(r["all"][v][ln]) for v, ln in cols]
            cells.append(f"{PAPER[worst[0]]} {100 * worst[1]['blind'][learners[0]]['accuracy']:.1f}")
            print(f"| {setting} | {strategy} | " + " | ".join(cells) + " |", flush=True)
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
