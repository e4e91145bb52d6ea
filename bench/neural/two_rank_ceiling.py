#!/usr/bin/env python3
"""The most two data-parallel ranks could gain on this machine, with synchronisation free.

One rave-step (bench/neural/step_server.cpp) with the global batch B on CPU 0, against two
rave-steps with B/2 each, one pinned to each of CPUs 0 and 1 and stepped together: every step
is sent to both and waits for both, as synchronous SGD waits for the slower rank, but there is no
all-reduce, no optimiser exchange and no data pipeline. The ratio of the median step times is the
ceiling of what `rave train --nproc 2` can reach over one process on this machine
(bench/neural/data_parallel.sh measures what it does reach). The variants alternate ROUNDS times so
both see the same load; every process runs with the MALLOC_TOP_PAD_ that `rave train` gives
rave-train.

  .venv/bin/python bench/neural/two_rank_ceiling.py --rave-step build/bench/rave-step \
      --model cnn --drt --batch 32 --rounds 6 --steps 80
"""
import argparse
import os
import statistics
import subprocess
import sys


def start(args, batch, cpu):
    """A rave-step pinned to one CPU, one compute thread, past its warm-up steps."""
    command = ["taskset", "-c", str(cpu), args.rave_step, args.model, str(int(args.drt)),
               str(args.image_size), str(batch), "1"]
    env = dict(os.environ, MALLOC_TOP_PAD_=os.environ.get("MALLOC_TOP_PAD_", "268435456"))
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               env=env)
    if process.stdout.readline().strip() != "ready":
        sys.exit(f"two_rank_ceiling.py: {' '.join(command)} did not start")
    return process


def lockstep(processes, steps):
    """Median and min over `steps` of the slowest process's step time (ms)."""
    times = []
    for _ in range(steps):
        for p in processes:
            p.stdin.write("step\n")
            p.stdin.flush()
        times.append(max(float(p.stdout.readline()) for p in processes))
    for p in processes:
        p.stdin.close()
        p.wait()
    return statistics.median(times), min(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rave-step", default="build/bench/rave-step")
    parser.add_argument("--model", default="cnn", help="cnn, resnet, lstm or wren")
    parser.add_argument("--drt", action="store_true", help="with the Dynamic Residual Tree")
    parser.add_argument("--image-size", type=int, default=80)
    parser.add_argument("--batch", type=int, default=32, help="the global batch (even)")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--steps", type=int, default=80, help="timed steps per variant and round")
    args = parser.parse_args()
    if args.batch < 2 or args.batch % 2:
        parser.error("--batch must be even and at least 2")
    if (os.cpu_count() or 1) < 2:
        parser.error("needs two CPUs")
    ratios = []
    for round_ in range(1, args.rounds + 1):
        one = lockstep([start(args, args.batch, 0)], args.steps)
        half = args.batch // 2
        two = lockstep([start(args, half, 0), start(args, half, 1)], args.steps)
        ratios.append(one[0] / two[0])
        print(f"round {round_}: 1 x batch {args.batch}: median {one[0]:.1f} ms (min {one[1]:.1f}); "
              f"2 x batch {half} in lockstep: median {two[0]:.1f} ms (min {two[1]:.1f}); "
              f"ceiling {ratios[-1]:.2f}x", flush=True)
    print(f"ceiling of 2 ranks over 1 process: median {statistics.median(ratios):.2f}x "
          f"[{min(ratios):.2f}-{max(ratios):.2f}] over {args.rounds} rounds")


if __name__ == "__main__":
    main()
