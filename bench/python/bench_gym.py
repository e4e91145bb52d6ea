#!/usr/bin/env python3
"""rave.gym's entries made on the fly, measured side by side in one run (figures in bench/README.md,
"Python: the RL environment").

    PYTHONPATH=build/python .venv/bin/python bench/python/bench_gym.py            # ~2 minutes on 2 cores
    PYTHONPATH=build/python .venv/bin/python bench/python/bench_gym.py --quick    # a smoke run

Per case, entries 0..n-1 of a fresh dataset (RaveDataset.entries: generate, solve, redraw where the
answer is not proved unique, write the question, draw and encode the images; the reasoning-gym dicts
included), one thread, CPU time (time.process_time) per entry; the cases alternate inside each
repetition and each repetition draws another seed, medians of --reps. Then the same with 2 threads,
CPU time of both together per entry (what the threads add), and score_answer per reply. The cases: the text form,
the sheet (one image, 160-px panels) and the panels at 224 px, at difficulty 2 (the 7 configurations,
3 x 3, I-RAVEN answer sets), and the text form at difficulties 0 and 7.
"""
import argparse
import statistics
import time

import rave
import rave.gym

CASES = [  # (label, options, entries per repetition)
    ("text, difficulty 2", {"form": "text"}, 1400),
    ("sheet, difficulty 2", {"form": "sheet"}, 280),
    ("panels 224 px, difficulty 2", {"form": "panels", "image_size": 224}, 280),
    ("text, difficulty 0 (center_single)", {"form": "text", "difficulty": 0}, 1400),
    ("text, difficulty 7 (10 x 10, 1000 values)", {"form": "text", "difficulty": 7}, 70),
]


def timed(options, n, seed, threads, clock):
    ds = rave.gym.create_dataset(n, seed=seed, threads=threads, **options)
    start = clock()
    entries = ds.entries()
    return (clock() - start) / n, entries


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--reps", type=int, default=5)
    p.add_argument("--quick", action="store_true")
    a = p.parse_args()
    scale = 10 if a.quick else 1
    reps = 1 if a.quick else a.reps
    cpu = {label: [] for label, _, _ in CASES}
    two = {label: [] for label, _, _ in CASES}
    sizes = {}
    for rep in range(reps):
        for label, options, n in CASES:
            n = max(7, n // scale)
            t, entries = timed(options, n, 1000 + rep, 1, time.process_time)
            cpu[label].append(t)
            sizes[label] = (sum(len(e["question"]) for e in entries) / n,
                            sum(len(png) for e in entries for png in e.get("images", [])) / n)
            two[label].append(timed(options, n, 2000 + rep, 2, time.process_time)[0])
    print("| case | CPU per entry, 1 thread | entries/s per core | CPU per entry, 2 threads | question chars | image bytes |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, _, _ in CASES:
        c, w = statistics.median(cpu[label]), statistics.median(two[label])
        chars, png = sizes[label]
        print(f"| {label} | {c * 1e6:,.0f} us | {1 / c:,.0f} | {w * 1e6:,.0f} us | {chars:,.0f} | {png:,.0f} |")
    ds = rave.gym.create_dataset(700, seed=1)
    entries = ds.entries()
    replies = [f"<think>rows</think><answer>Answer #{k}</answer>" for k in range(8)]
    times = []
    for _ in range(reps):
        start = time.process_time()
        for e in entries:
            for r in replies:
                ds.score_answer(r, e)
        times.append((time.process_time() - start) / (len(entries) * len(replies)))
    print(f"score_answer: {statistics.median(times) * 1e6:.1f} us per reply (CPU, median of {reps})")


if __name__ == "__main__":
    main()
