#!/usr/bin/env python3
"""The Python package against the C++ core, measured in one run (figures in bench/README.md, "Python").

    PYTHONPATH=build/python .venv/bin/python bench/python/bench_python.py            # ~3 minutes on 2 cores
    PYTHONPATH=build/python .venv/bin/python bench/python/bench_python.py --quick    # a smoke run

1. rave.generate_batch at 160x160 (batches of 32), one thread, CPU time per problem, against rave-bench's
   BM_Generate_Render (the same work in C++: sample, answer set, 16 panels; no file encodings) run
   by this script in the same session; the ratio per configuration. As a training loop would, each
   batch is written into the previous one's arrays (out=); the column "new arrays" allocates each
   batch instead: 13 MB of fresh pages per batch, which the kernel faults in (costly in this VM).
2. The same at 80x80, resize included: problems/s per core.
3. The binding's overhead per problem (Python minus C++, microseconds) for rave.generate (symbolic;
   against BM_Generate_Problem), rave.generate(...).image and generate_batch (against BM_Generate_Render).
4. RavenStream through a DataLoader with 2 workers (80x80, batches of 32): problems/s, wall time,
   against what the CNN+DRT training step consumes (32 / BM_TrainStep_CnnMlpDrt/1, one thread).
5. Peak RSS (ru_maxrss) while iterating 100,000 problems, at checkpoints, in a fresh process.
Medians of --reps repetitions; CPU time from time.process_time (one thread works at a time).
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

import rave

ROOT = pathlib.Path(__file__).resolve().parents[2]


def cpp_medians(bench, pattern, reps, field="cpu_time"):
    """{benchmark name: median `field` in seconds} of rave-bench's cases matching `pattern`."""
    out = subprocess.run([bench, f"--benchmark_filter={pattern}", f"--benchmark_repetitions={reps}",
                          "--benchmark_report_aggregates_only=true", "--benchmark_format=json"],
                         capture_output=True, text=True, check=True).stdout
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    runs = json.loads(out)["benchmarks"]
    wanted = "median" if reps > 1 else None  # one repetition: no aggregates, the run itself
    return {b["run_name"]: b[field] * scale[b["time_unit"]] for b in runs if b.get("aggregate_name") == wanted}


def cpu_per_item(fn, items, reps):
    """Median over reps of process CPU seconds per item of fn() (which handles `items` items)."""
    fn()  # warm-up: entity templates, allocator
    times = []
    for _ in range(reps):
        start = time.process_time()
        fn()
        times.append((time.process_time() - start) / items)
    return statistics.median(times)


def per_config(bench, args):
    cpp = cpp_medians(bench, "BM_Generate_(Problem|Render)/", args.reps)
    rows = []
    n = args.problems - args.problems % 32  # whole batches of 32
    for c, config in enumerate(rave.CONFIGS):
        def batch(size, reuse=True):  # batches of 32, as a training loop asks for them
            out = rave.generate_batch(config, range(32), seed=1234, image_size=size) if reuse else None

            def run():  # with reuse, every batch goes into the arrays made above, outside the timing
                for k in range(0, n, 32):
                    rave.generate_batch(config, range(k, k + 32), seed=1234, image_size=size, out=out)
            return run
        row = {
            "config": rave.PAPER_NAMES[c],
            "cpp_problem": cpp[f"BM_Generate_Problem/{c}"],
            "cpp_render": cpp[f"BM_Generate_Render/{c}"],
            "batch160": cpu_per_item(batch(160), n, args.reps),
            "batch160_new": cpu_per_item(batch(160, reuse=False), n, args.reps),
            "batch80": cpu_per_item(batch(80), n, args.reps),
            "generate": cpu_per_item(lambda: [rave.generate(config, k) for k in range(n)], n, args.reps),
            "image": cpu_per_item(lambda: [rave.generate(config, k).image for k in range(n)], n, args.reps),
        }
        rows.append(row)
        print(f"  {row['config']}: done", file=sys.stderr, flush=True)
    return rows


def stream_rate(batch_size, length, reps, uint8=False, shared=True):
    """Problems/s (wall) of RavenStream through DataLoader(num_workers=2), after the first batch. With
    `uint8` the workers send grey levels as bytes and the consumer converts each batch to float32
    (the conversion is inside the timing); `shared` is RavenStream's shared_batches."""
    import torch
    from torch.utils.data import DataLoader
    from rave.torch import RavenStream
    rates = []
    for rep in range(reps):
        stream = RavenStream(seed=100 + rep, image_size=80, length=length, batch_size=batch_size,
                             dtype=torch.uint8 if uint8 else torch.float32, shared_batches=shared)
        loader = DataLoader(stream, batch_size=None if batch_size else 32, num_workers=2)
        it = iter(loader)
        first = next(it)
        seen, start = 0, time.perf_counter()
        for batch in it:
            if uint8:
                batch[0].float()
            seen += len(batch[1])
        rates.append(seen / (time.perf_counter() - start))
        del first, it
    return statistics.median(rates), torch.get_num_threads()


RSS_SCRIPT = """
import resource, sys, rave
kind, total = sys.argv[1], int(sys.argv[2])
marks = {1000, 10000, total // 2, total}
def rss(): return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
if kind == "stream":
    from rave.torch import RavenStream
    for i, sample in enumerate(RavenStream(seed=5, image_size=80, length=total), 1):
        if i in marks: print(i, round(rss(), 1), flush=True)
else:
    for i in range(1, total + 1):
        rave.generate(rave.CONFIGS[i % 7], i, seed=5).image
        if i in marks: print(i, round(rss(), 1), flush=True)
"""


def peak_rss(kind, total):
    out = subprocess.run([sys.executable, "-c", RSS_SCRIPT, kind, str(total)], capture_output=True, text=True,
                         check=True).stdout
    return [tuple(float(v) for v in line.split()) for line in out.splitlines()]


def us(seconds):
    return f"{seconds * 1e6:.1f}"


def print_generation(rows):
    print("\n| configuration | C++ BM_Generate_Render | generate_batch 160 (out=) | ratio | new arrays | ratio "
          "| generate_batch 80 (out=, resize incl.) | problems/s per core at 80 |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    keys = ("cpp_render", "batch160", "batch160_new", "batch80")
    for r in rows + [dict(config="mean of the 7", **{k: statistics.mean(r[k] for r in rows) for k in keys})]:
        print(f"| {r['config']} | {us(r['cpp_render'])} us | {us(r['batch160'])} us | "
              f"{r['batch160'] / r['cpp_render']:.3f} | {us(r['batch160_new'])} us | "
              f"{r['batch160_new'] / r['cpp_render']:.3f} | {us(r['batch80'])} us | {1 / r['batch80']:,.0f} |")


def print_overhead(rows):
    print("\n| configuration | rave.generate - BM_Generate_Problem | rave.generate().image - BM_Generate_Render "
          "| generate_batch 160 - BM_Generate_Render |")
    print("|---|---:|---:|---:|")
    for r in rows:
        print(f"| {r['config']} | {us(r['generate'] - r['cpp_problem'])} us ({us(r['generate'])} - "
              f"{us(r['cpp_problem'])}) | {us(r['image'] - r['cpp_render'])} us | "
              f"{us(r['batch160'] - r['cpp_render'])} us |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rave-bench", default=str(ROOT / "build" / "bench" / "rave-bench"))
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--problems", type=int, default=320, help="problems per timed Python repetition (whole batches of 32)")
    parser.add_argument("--stream-length", type=int, default=9600)
    parser.add_argument("--rss-problems", type=int, default=100_000)
    parser.add_argument("--quick", action="store_true", help="tiny sizes, to check the script runs")
    args = parser.parse_args()
    if args.quick:
        args.reps, args.problems, args.stream_length, args.rss_problems = 1, 32, 320, 2000
    print(f"load average before: {os.getloadavg()}", flush=True)
    rows = per_config(args.rave_bench, args)
    print_generation(rows)
    print_overhead(rows)
    step = cpp_medians(args.rave_bench, "BM_TrainStep_CnnMlpDrt/1/", 10, "real_time")  # the case runs 10 repeats
    step_s = next(iter(step.values()))
    consumes = 32 / step_s
    print(f"\nCNN+DRT training step (BM_TrainStep_CnnMlpDrt/1, batch 32, one thread): {step_s * 1e3:.1f} ms "
          f"= {consumes:,.0f} problems/s consumed")
    for label, batch_size, uint8, shared in (
            ("samples collated by the DataLoader (batch_size=32)", None, False, True),
            ("whole batches (RavenStream(batch_size=32), DataLoader(batch_size=None))", 32, False, True),
            ("whole batches through torch's transport (shared_batches=False)", 32, False, False),
            ("whole batches sent as uint8 (dtype=torch.uint8), .float() in the consumer", 32, True, True)):
        rate, threads = stream_rate(batch_size, args.stream_length, 1 if args.quick else 3, uint8, shared)
        print(f"RavenStream, 2 workers, 80x80, {label}: {rate:,.0f} problems/s = {rate / consumes:.1f}x the step")
    for kind in ("stream", "generate"):
        marks = ", ".join(f"{int(n):,}: {mb:.1f} MB" for n, mb in peak_rss(kind, args.rss_problems))
        what = "RavenStream 80x80 in process" if kind == "stream" else "rave.generate(...).image, 160x160"
        print(f"peak RSS over {args.rss_problems:,} problems, {what}: {marks}")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
