#!/usr/bin/env python3
"""Copies a dataset's npz files with Gaussian noise added to their images, for `rave solve`'s
robustness figure (docs/perception.md): each pixel gets round(N(0, sigma)) added, clipped to 0..255,
from a seeded generator; every other member is kept. No XML is copied, so `rave solve OUT` reads
the images alone.

usage: scripts/noisy_npz.py IN_DIR OUT_DIR [--sigma 10] [--seed 1] [--limit N]
       (at most N files per configuration folder, in sorted order)
"""
import argparse
import pathlib

import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src", type=pathlib.Path)
    ap.add_argument("dst", type=pathlib.Path)
    ap.add_argument("--sigma", type=float, default=10.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    taken = {}
    for path in sorted(args.src.rglob("*.npz")):
        folder = path.parent.relative_to(args.src)
        if args.limit and taken.get(folder, 0) >= args.limit:
            continue
        taken[folder] = taken.get(folder, 0) + 1
        with np.load(path) as f:
            members = {key: f[key] for key in f.files}
        image = members["image"].astype(np.float64) + np.round(rng.normal(0.0, args.sigma, members["image"].shape))
        members["image"] = np.clip(image, 0, 255).astype(np.uint8)
        out = args.dst / folder / path.name
        out.parent.mkdir(parents=True, exist_ok=True)
        np.savez(out, **members)
    print(f"{sum(taken.values())} files with sigma {args.sigma} noise written to {args.dst}")


if __name__ == "__main__":
    main()
