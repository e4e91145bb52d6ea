#!/usr/bin/env python3
"""Predictions of two model-free baselines from a `rave export --format json` file, one JSON line
per problem as `rave score` reads them (docs/evaluation.md):

  random         a uniformly random candidate (seeded)
  context-blind  the candidate sharing the most attribute values with the other candidates, without
                 looking at the matrix (docs/answer-sets.md#the-context-blind-shortcut; the rule `rave check` audits with)

It reads only the exported plain data, as any pipeline consuming the json export would.

  rave export DIR --format json -o set.jsonl
  scripts/baseline_predictions.py set.jsonl --player context-blind > blind.jsonl
  scripts/baseline_predictions.py set.jsonl --player random --seed 1 > random.jsonl
"""
import argparse
import json
import random
import sys


def component_values(component):
    """Number, slot set and the Type, Size, Color tuples of one component of one panel."""
    entities = component["entities"]
    return (len(entities), tuple(sorted(e["slot"] for e in entities)),
            tuple(e["type"] for e in entities), tuple(e["size"] for e in entities),
            tuple(e["color"] for e in entities))


def shared_values(a, b):
    return sum(x == y for ca, cb in zip(a, b) for x, y in zip(ca, cb))


def context_blind_choice(candidates):
    values = [[component_values(c) for c in panel] for panel in candidates]
    scores = [sum(shared_values(values[i], values[j]) for j in range(len(values)) if j != i)
              for i in range(len(values))]
    return scores.index(max(scores))  # the lowest index on ties


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("export", help="a rave export --format json file")
    parser.add_argument("--player", choices=["random", "context-blind"], required=True)
    parser.add_argument("--seed", type=int, default=0, help="random player's seed")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with open(args.export, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            try:
                problem = json.loads(line)
                candidates = problem["candidates"]
            except (ValueError, KeyError) as error:
                sys.exit(f"{args.export}:line {number}: not a rave export --format json line ({error})")
            answer = rng.randrange(len(candidates)) if args.player == "random" else context_blind_choice(candidates)
            print(json.dumps({"id": problem["id"], "answer": answer, "model": args.player}))


if __name__ == "__main__":
    main()
