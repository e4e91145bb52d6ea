#!/usr/bin/env python3
"""rave's training step against the same model in PyTorch, alternating in one run.

For each case, rave-step (bench/neural/step_server.cpp) and the PyTorch module of
pytorch_reference.py are built side by side with the same threads, batch and input size, against
the same LibTorch (rave-step links the one inside the torch that runs this script: .venv's), both
make 2 warm-up steps, and then the steps alternate: one rave step, one PyTorch step, ROUNDS times,
so a change of machine load hits both. Both processes run with the same glibc allocator setting,
MALLOC_TOP_PAD_ (by default the 256 MB `rave train` gives rave-train; --malloc-top-pad 0 leaves
glibc's defaults): the script starts itself again with it set, since the allocator reads it only
at process start (without it rave's CNN_LSTM+DRT step took 668 ms instead of 345, median of 10;
PyTorch's did not gain from it: bench/README.md). Prints a Markdown table of min and median per
side.

  .venv/bin/python bench/neural/compare_pytorch.py --rave-step build/bench/rave-step \
      --threads 1 2 --rounds 10 --cases cnn cnn+drt resnet+drt lstm+drt wren
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

CASES = {  # name: (model, drt, image size)
    "cnn": ("cnn", 0, 80), "cnn+drt": ("cnn", 1, 80), "resnet+drt": ("resnet", 1, 224),
    "resnet+drt@80": ("resnet", 1, 80), "lstm+drt": ("lstm", 1, 80), "wren": ("wren", 0, 80),
}


def set_threads(threads):
    """torch's intra-op threads, as rave's set_compute_threads sets them."""
    import torch
    torch.set_num_threads(threads)


def measure(rave_step, case, threads, batch, rounds, device, precision):
    from pytorch_reference import make_step
    model, drt, size = CASES[case]
    set_threads(threads)
    server = subprocess.Popen([rave_step, model, str(drt), str(size), str(batch), str(threads), device, precision],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    torch_step = make_step(model, bool(drt), size, batch, device, precision)
    for _ in range(2):
        torch_step()
    if server.stdout.readline().strip() != "ready":
        sys.exit("rave-step did not start")
    ours, theirs = [], []
    for _ in range(rounds):
        server.stdin.write("step\n")
        server.stdin.flush()
        ours.append(float(server.stdout.readline()) / 1000)
        t0 = time.perf_counter()
        torch_step()
        theirs.append(time.perf_counter() - t0)
    server.stdin.close()
    server.wait()
    return ours, theirs


def fmt(seconds):
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def row(args, case, threads, precision):
    ours, theirs = measure(args.rave_step, case, threads, args.batch, args.rounds, args.device, precision)
    size = CASES[case][2]
    print(f"| {case} (16x{size}x{size}) | {args.device}, {precision} | {threads} | {fmt(min(ours))} | "
          f"{fmt(statistics.median(ours))} | {fmt(min(theirs))} | {fmt(statistics.median(theirs))} | "
          f"{statistics.median(ours) / statistics.median(theirs):.2f} |", flush=True)


def same_allocator(pad):
    """Re-executes this script with MALLOC_TOP_PAD_ set (or unset for 0), so that PyTorch's process
    and rave-step, which inherits the environment, allocate alike."""
    wanted = str(pad) if pad > 0 else None
    if os.environ.get("MALLOC_TOP_PAD_") == wanted or os.environ.get("RAVE_COMPARE_REEXEC"):
        return
    env = dict(os.environ, RAVE_COMPARE_REEXEC="1")
    env.pop("MALLOC_TOP_PAD_", None)
    if wanted:
        env["MALLOC_TOP_PAD_"] = wanted
    os.execve(sys.executable, [sys.executable] + sys.argv, env)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rave-step", default="build/bench/rave-step")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--device", default="cpu", help="cpu or cuda:K")
    parser.add_argument("--precision", nargs="+", default=["fp32"], choices=["fp32", "bf16"])
    parser.add_argument("--cases", nargs="+", default=["cnn", "cnn+drt", "resnet+drt", "lstm+drt", "wren"],
                        choices=sorted(CASES))
    parser.add_argument("--malloc-top-pad", type=int, default=268435456,
                        help="MALLOC_TOP_PAD_ for both sides, in bytes (0: glibc's defaults)")
    args = parser.parse_args()
    same_allocator(args.malloc_top_pad)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    pad = os.environ.get("MALLOC_TOP_PAD_", "unset (glibc's defaults)")
    print(f"batch {args.batch}, {args.rounds} alternating rounds after 2 warm-up steps each; MALLOC_TOP_PAD_ {pad} "
          f"for both; load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    print("| model (input) | device, precision | threads | rave min | rave median | PyTorch min | PyTorch median "
          "| median ratio |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for case in args.cases:
        for threads in args.threads:
            for precision in args.precision:
                row(args, case, threads, precision)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
