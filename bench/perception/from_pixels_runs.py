#!/usr/bin/env python3
"""Whole `rave solve --from-pixels` runs with and without perception's disk cache, side by side
(figures in bench/README.md, "Perception: solving from pixels").

    .venv/bin/python bench/perception/from_pixels_runs.py [--rave build/apps/rave] [--runs 7]
        [--work DIR]

Makes two sets with `rave generate --seed 2024` (1 and 30 problems per configuration: 7 and 210
files), then runs `rave solve SET --from-pixels -j 1` --runs times per case, the cases interleaved
(so load changes hit all alike): `no cache` is RAVE_CACHE_DIR=off (every process builds its
tables, as before the cache), `cache` reads a folder an untimed run filled. The CPU time of a run
(user + system) is the difference of getrusage(RUSAGE_CHILDREN) around it. Prints the median CPU
per run, problems per CPU-second, and the ratio no cache / cache per set.
"""
import argparse
import os
import pathlib
import resource
import statistics
import subprocess
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[2]


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cpu_of(cmd, env):
    before = child_cpu()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
    return child_cpu() - before


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rave", default=str(ROOT / "build/apps/rave"))
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--work", default=None, help="folder for the sets and the cache (a temporary one)")
    o = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=o.work) as tmp:
        work = pathlib.Path(tmp)
        sets = {}
        for per_config in (1, 30):
            folder = work / f"set{per_config}"
            subprocess.run([o.rave, "generate", "-n", str(per_config), "-s", "2024", "-o", str(folder)],
                           stdout=subprocess.DEVNULL, check=True)
            sets[7 * per_config] = folder
        cached = dict(os.environ, RAVE_CACHE_DIR=str(work / "cache"))
        uncached = dict(os.environ, RAVE_CACHE_DIR="off")
        cases = {(n, name): ([o.rave, "solve", str(folder), "--from-pixels", "-j", "1"], env)
                 for n, folder in sets.items() for name, env in (("no cache", uncached), ("cache", cached))}
        cpu_of(cases[(7, "cache")][0], cached)  # fills the cache
        times = {case: [] for case in cases}
        for _ in range(o.runs):
            for case, (cmd, env) in cases.items():
                times[case].append(cpu_of(cmd, env))
        print(f"{'files':>6} {'case':>9} {'CPU s median':>13} {'min':>7} {'max':>7} {'problems/CPU-s':>15}")
        for (n, name), t in times.items():
            m = statistics.median(t)
            print(f"{n:>6} {name:>9} {m:>13.3f} {min(t):>7.3f} {max(t):>7.3f} {n / m:>15.0f}")
        for n in sets:
            print(f"{n} files: no cache / cache = {statistics.median(times[(n, 'no cache')]) / statistics.median(times[(n, 'cache')]):.2f}x")


if __name__ == "__main__":
    main()
