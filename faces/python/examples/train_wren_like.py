#!/usr/bin/env python3
"""Train a small WReN-like model on problems generated on the fly, then test it per configuration
beside the solver's ceiling (rave.solve on the same test problems).

    .venv/bin/python faces/python/examples/train_wren_like.py                 # 300 steps, ~1-2 minutes on 2 cores
    .venv/bin/python faces/python/examples/train_wren_like.py --steps 2000 --answers iraven

No dataset on disk: training draws from RavenStream(seed=1), the test set from a held-out seed (2),
so no test problem was seen in training. The model embeds each panel with a small CNN (plus a tag
for its position), scores each candidate by a relation network over the pairs of the 8 context
panels and the candidate (Barrett et al.'s WReN, scaled down), and is trained with cross-entropy.
"""
import argparse
import time

import torch
from torch import nn
from torch.utils.data import DataLoader

import rave
from rave.torch import RavenStream

CONTEXT, CANDIDATES = 8, 8


class PanelEncoder(nn.Module):
    """(N, 1, S, S) -> (N, width): three strided conv blocks, global average pool, linear."""

    def __init__(self, width):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv2d(1, 8, 5, stride=4), nn.BatchNorm2d(8), nn.ReLU(),
            nn.Conv2d(8, 16, 3, stride=2), nn.BatchNorm2d(16), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2), nn.BatchNorm2d(32), nn.ReLU())
        self.out = nn.Linear(32, width)

    def forward(self, x):
        return self.out(self.conv(x).mean(dim=(2, 3)))


class WrenLike(nn.Module):
    """Scores the 8 candidates of (B, 16, S, S) images (grey levels 0..255)."""

    def __init__(self, width=32, hidden=64):
        super().__init__()
        self.encoder = PanelEncoder(width)
        self.tag = nn.Parameter(torch.randn(CONTEXT + 1, width) * 0.1)  # 8 context positions + "candidate"
        # g's first layer on a pair (a, b) is first(a) + second(b): computed per panel, added per pair
        self.first, self.second = nn.Linear(width, hidden), nn.Linear(width, hidden, bias=False)
        self.g = nn.Sequential(nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.f = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, images):
        b, panels, s, _ = images.shape
        z = self.encoder(images.reshape(b * panels, 1, s, s) / 255.0).reshape(b, panels, -1)
        z = torch.cat([z[:, :CONTEXT] + self.tag[:CONTEXT], z[:, CONTEXT:] + self.tag[CONTEXT]], dim=1)
        a, c = self.first(z), self.second(z)  # (B, 16, hidden) each
        scores = []
        for i in range(CONTEXT, panels):
            nine = [*range(CONTEXT), i]
            pairs = a[:, nine].unsqueeze(2) + c[:, nine].unsqueeze(1)  # (B, 9, 9, hidden)
            scores.append(self.f(self.g(pairs).sum(dim=(1, 2))))
        return torch.cat(scores, dim=1)  # (B, 8) logits


def train(model, args):
    stream = RavenStream(answers=args.answers, seed=args.seed, image_size=args.image_size,
                         length=args.steps * args.batch, batch_size=args.batch)
    loader = DataLoader(stream, batch_size=None, num_workers=args.workers)
    adam = torch.optim.Adam(model.parameters(), lr=args.lr)
    model.train()
    start, running = time.time(), None
    for step, (images, target, _, _) in enumerate(loader, 1):
        loss = nn.functional.cross_entropy(model(images), target)
        adam.zero_grad()
        loss.backward()
        adam.step()
        running = loss.item() if running is None else 0.95 * running + 0.05 * loss.item()
        if step % max(1, args.steps // 10) == 0 or step == args.steps:
            print(f"step {step:5d}  loss {running:.3f}  {time.time() - start:6.1f} s", flush=True)


def evaluate(model, args):
    """Per configuration: (model accuracy, solver accuracy) on the held-out test problems, in %."""
    n = len(rave.CONFIGS)
    stream = RavenStream(answers=args.answers, seed=args.test_seed, image_size=args.image_size,
                         length=args.test_per_config * n, batch_size=args.batch, return_index=True)
    hits, solved, count = [0] * n, [0] * n, [0] * n
    model.eval()
    with torch.no_grad():
        for images, target, _, _, index in DataLoader(stream, batch_size=None):
            right = model(images).argmax(dim=1) == target
            for g, ok in zip(index.tolist(), right.tolist()):
                c, k = g % n, g // n
                problem = rave.generate(rave.CONFIGS[c], k, seed=args.test_seed, answers=args.answers)
                hits[c] += ok
                solved[c] += rave.solve(problem).correct
                count[c] += 1
    return [(100.0 * h / m, 100.0 * s / m) for h, s, m in zip(hits, solved, count)]


def print_table(rows, args):
    width = max(len(name) for name in rave.PAPER_NAMES) + 2
    print(f"\ntest accuracy (%), {args.test_per_config} problems per configuration, {args.answers} answer sets")
    print(f"{'':10}" + "".join(f"{name:>{width}}" for name in rave.PAPER_NAMES) + f"{'mean':>{width}}")
    for label, column in (("model", 0), ("solver", 1)):
        values = [row[column] for row in rows]
        print(f"{label:10}" + "".join(f"{v:>{width}.1f}" for v in values) + f"{sum(values) / len(values):>{width}.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=300, help="training steps (batches)")
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--answers", default="raven", choices=rave.STRATEGIES)
    parser.add_argument("--image-size", type=int, default=80)
    parser.add_argument("--seed", type=int, default=1, help="training problems' seed")
    parser.add_argument("--test-seed", type=int, default=2, help="held-out test problems' seed")
    parser.add_argument("--test-per-config", type=int, default=100)
    parser.add_argument("--workers", type=int, default=1, help="DataLoader workers generating problems")
    parser.add_argument("--threads", type=int, default=1, help="torch threads for the model")
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(args.threads)
    model = WrenLike()
    print(f"WReN-like model, {sum(p.numel() for p in model.parameters()):,} parameters")
    train(model, args)
    print_table(evaluate(model, args), args)


if __name__ == "__main__":
    main()
