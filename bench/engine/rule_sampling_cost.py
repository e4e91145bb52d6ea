#!/usr/bin/env python3
"""Per-problem cost of generation at N = 3, 5, 10 for two builds side by side (bench/README.md).

Instructions: callgrind counts inside generate_problem (the variant overload every `rave generate`
problem goes through) over `rave generate -n P --symbolic-only --answers iraven -j 1`, divided by P;
repeatable, so one run per build. Time: rave-bench's BM_Generate_Grid and BM_Rules_Grid, the two
builds alternated for R rounds of 3 repetitions each, medians of all repetitions (real and CPU).

    python3 bench/engine/rule_sampling_cost.py --before DIR --after DIR [--problems 100] [--rounds 3]

DIR holds a build's `rave` and `rave-bench`. Prints two Markdown tables.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import tempfile

CONFIGS = ["Center", "2x2Grid", "3x3Grid", "L-R", "U-D", "O-IC", "O-IG"]
STRATEGIES = ["raven", "iraven", "fair", "balanced"]  # AnswerStrategy's order
GRIDS = [3, 5, 10]
PANELS = {n: n * n + 7 for n in GRIDS}
TOGGLE = "rave::engine::generate_problem(*Variant const&*"


def instructions(rave, config, grid, problems):
    """Instructions per problem inside generate_problem."""
    with tempfile.TemporaryDirectory() as tmp:
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
               f"--toggle-collect={TOGGLE}", rave, "generate", "-n", str(problems), "-c", config,
               "--grid", str(grid), "--answers", "iraven", "--symbolic-only", "-j", "1",
               "-o", f"{tmp}/out"]
        err = subprocess.run(cmd, capture_output=True, text=True, check=True).stderr
    return int(re.search(r"Collected : (\d+)", err).group(1)) / problems


def case_of(run_name):
    """A rave-bench run name as (benchmark, configuration, N, strategy). BM_Generate_Grid's third
    argument is the answer strategy (ArgsProduct {{0..6}, {3, 5, 10}, {0, 1, 3}}); a build from before
    it had two and generated with iraven, so its cases match the newer build's iraven ones."""
    name, *parts = run_name.split("/")
    args = [int(a) for a in parts if a.isdigit()]  # not "repeats:3", "min_time:0.200"
    if len(args) not in (2, 3):
        raise ValueError(f"unexpected rave-bench case '{run_name}'")
    strategy = STRATEGIES[args[2]] if len(args) == 3 else None
    if name == "BM_Generate_Grid" and strategy is None:
        strategy = "iraven"
    return name, CONFIGS[args[0]], args[1], strategy


def case_label(case):
    name, config, grid, strategy = case
    return f"{name} {config} N = {grid}" + (f" {strategy}" if strategy else "")


def bench_times(bench, samples):
    """Appends each case's real and CPU times per iteration (us) to samples[case_of(name)]."""
    out = subprocess.run([bench, "--benchmark_filter=BM_Generate_Grid|BM_Rules_Grid",
                          "--benchmark_repetitions=3", "--benchmark_format=json",
                          "--benchmark_min_time=0.2"],
                         capture_output=True, text=True, check=True).stdout
    for b in json.loads(out)["benchmarks"]:
        if b.get("run_type") != "iteration":
            continue
        scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3}[b["time_unit"]]
        samples.setdefault(case_of(b["run_name"]), []).append(
            (b["real_time"] * scale, b["cpu_time"] * scale, b.get("tries")))


def median(values):
    return statistics.median(values)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--problems", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    builds = {"before": args.before, "after": args.after}
    ir = {(b, c, n): instructions(os.path.join(d, "rave"), c, n, args.problems)
          for b, d in builds.items() for c in CONFIGS for n in GRIDS}
    times = {b: {} for b in builds}
    for _ in range(args.rounds):
        for b, d in builds.items():
            bench_times(os.path.join(d, "rave-bench"), times[b])
    print(f"Instructions per problem (callgrind, {args.problems} problems each; x = over N = 3)\n")
    print("| configuration | build | N = 3 | N = 5 | N = 10 | N = 5 / 3 | N = 10 / 3 |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for c in CONFIGS:
        for b in builds:
            v = [ir[(b, c, n)] for n in GRIDS]
            print(f"| {c} | {b} | {v[0] / 1e3:,.0f} k | {v[1] / 1e3:,.0f} k | {v[2] / 1e3:,.0f} k "
                  f"| {v[1] / v[0]:.2f}x | {v[2] / v[0]:.2f}x |")
    print(f"\npanels: {PANELS}\n")
    print("Medians of rave-bench (us per problem, real / CPU), "
          f"{args.rounds} rounds x 3 repetitions, builds alternated\n")
    print("| case | before real | before cpu | after real | after cpu | before / after (cpu) |"
          " tries before | tries after |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for case in times["before"]:
        bs, as_ = times["before"][case], times["after"].get(case, [])
        if not as_:
            continue
        br, bc = median([s[0] for s in bs]), median([s[1] for s in bs])
        ar, ac = median([s[0] for s in as_]), median([s[1] for s in as_])
        tb, ta = bs[0][2], as_[0][2]
        tries = (f"{tb:,.0f}" if tb else "", f"{ta:,.0f}" if ta else "")
        print(f"| {case_label(case)} | {br:,.2f} | {bc:,.2f} | {ar:,.2f} | {ac:,.2f} | {bc / ac:.2f}x "
              f"| {tries[0]} | {tries[1]} |")


if __name__ == "__main__":
    main()
