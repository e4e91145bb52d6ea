#!/usr/bin/env python3
"""80 px against 160 px: rave.generate_batch CPU per problem, one thread, side by side (bench/README.md).

    PYTHONPATH=build/python .venv/bin/python bench/python/bench_small_images.py
    .venv/bin/python bench/python/bench_small_images.py --builds build/python /work/main/build/python

Each build's package runs in its own worker process; the workers alternate, ROUNDS times, and each
times REPS calls of each size in turn (7 configurations x 32 problems a call, `out=` reused as a
training loop does, after a warm-up). Reported: medians over rounds and repetitions of the CPU time
per problem (time.process_time) at 160 and 80 px, and their ratio, per build.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time


def worker(reps):
    import rave
    outs = {size: [rave.generate_batch(c, range(32), seed=1234, image_size=size) for c in rave.CONFIGS]
            for size in (160, 80)}

    def one(size, start):
        for c, config in enumerate(rave.CONFIGS):
            rave.generate_batch(config, range(start, start + 32), seed=1234, image_size=size, out=outs[size][c])
        return 32 * len(rave.CONFIGS)

    for size in (160, 80):
        one(size, 0)  # warm-up: entity templates, allocator
    times = {160: [], 80: []}
    for rep in range(reps):
        for size in (160, 80):
            start = time.process_time()
            n = one(size, 32 * (rep + 1))
            times[size].append((time.process_time() - start) / n)
    print(json.dumps(times))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--builds", nargs="+", default=[os.environ.get("PYTHONPATH", "build/python")],
                        help="folders holding the rave package (each gets its own worker process)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.reps)
    samples = {b: {"160": [], "80": []} for b in args.builds}
    for _ in range(args.rounds):
        for b in args.builds:
            env = dict(os.environ, PYTHONPATH=b, OMP_NUM_THREADS="1")
            out = subprocess.run([sys.executable, __file__, "--worker", "--reps", str(args.reps)], env=env,
                                 capture_output=True, text=True, check=True).stdout
            for size, values in json.loads(out).items():
                samples[b][size] += values
    print("| build | 160 px, us/problem | 80 px, us/problem | 80 / 160 |")
    print("|---|---:|---:|---:|")
    for b in args.builds:
        big, small = statistics.median(samples[b]["160"]), statistics.median(samples[b]["80"])
        print(f"| {b} | {big * 1e6:,.0f} | {small * 1e6:,.0f} | {small / big:.2f} |")


if __name__ == "__main__":
    main()
