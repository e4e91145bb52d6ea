#!/usr/bin/env python3
"""Checks rave.gym's rewards against the solver on many entries (docs/rl.md, "Checked").

For every entry: the problem is made again from its metadata by rave.generate (the attempt
included), solved by rave.solve, and its reward must be 1.0 for a perfect answerer (the solver's
answer, written three ways: bare, with reasoning, inside <answer> tags) exactly when the solver
proves the answer unique and the answer is shown unlike every other candidate (its "Answer #k"
text, or its panel's pixels), and 0.0 for every other candidate, a refusal and no reply. With --z3 N the
Z3 backend, which decides on its own, also proves the verdict of every unrewarded entry and of the
first N rewarded ones. tests/faces/python/test_gym.py runs the same check on 2,800 entries in CI.

    PYTHONPATH=build/python .venv/bin/python scripts/gym_check.py --size 10000 --answers raven --non-unique mark --z3 500
"""
import argparse
import re
import sys
import time

import rave
import rave.gym


def name(text_answer, k):
    return f"Answer #{k}" if text_answer == "answer-index" else str(k + 1)


def replies(text_answer, k):
    n = name(text_answer, k)
    return [n if text_answer == "label" else str(k), f"Row 1 keeps the shape, so the answer is {n}.",
            f"<think>the rows progress</think>\n<answer>{n}</answer>"]


def shown_apart(entry, problem):
    """Whether the answer is shown unlike every other candidate: its "Answer #k: ..." line of the
    question (text), or its panel's pixels (image forms)."""
    target = problem.target
    if entry["metadata"]["form"] == "text":
        shown = dict(re.findall(r"^Answer #(\d): (.*)$", entry["question"], re.M))
        assert len(shown) == 8
        return list(shown.values()).count(shown[str(target)]) == 1
    candidates = [bytes(panel) for panel in problem.image[len(problem.image) - 8:]]
    return candidates.count(candidates[target]) == 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--size", type=int, default=10000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--difficulty", type=int, default=2)
    p.add_argument("--form", default="text")
    p.add_argument("--answers", default="raven")
    p.add_argument("--non-unique", default="mark")
    p.add_argument("--z3", type=int, default=0, help="also prove the first N rewarded entries with Z3")
    p.add_argument("-j", "--jobs", type=int, default=2)
    o = p.parse_args()
    start = time.time()
    ds = rave.gym.create_dataset(o.size, seed=o.seed, difficulty=o.difficulty, form=o.form, answers=o.answers,
                                 non_unique=o.non_unique, threads=o.jobs, image_size=64)
    counts = {"entries": 0, "rewarded": 0, "not rewarded": 0, "redrawn": 0, "z3 proofs": 0,
              "unique, shown like another": 0, "wrong": 0}
    for e in ds:
        md = e["metadata"]
        counts["entries"] += 1
        counts["redrawn"] += md["attempt"] > 0
        problem = rave.generate(md["configuration"], md["index"], seed=md["seed"], answers=md["answers"],
                                grid=md["grid"], values=md["values"], confounders=md["confounders"],
                                attempt=md["attempt"])
        s = rave.solve(problem)
        unique = s.verdict == "unique" and s.answer == problem.target
        apart = shown_apart(e, problem)
        counts["unique, shown like another"] += unique and not apart
        proved = unique and apart
        counts["rewarded" if md["rewarded"] else "not rewarded"] += 1
        bad = md["rewarded"] != proved or problem.target != md["target"] or ds.score_answer(None, e) != 0.0
        for k in range(8):
            for r in replies(md["text_answer"], k):
                bad |= ds.score_answer(r, e) != (1.0 if proved and k == s.answer else 0.0)
        if (not md["rewarded"]) or counts["z3 proofs"] < o.z3:
            z = rave.solve(problem, backend="z3")
            counts["z3 proofs"] += 1
            bad |= (z.verdict == "unique" and z.answer == problem.target and apart) != md["rewarded"]
        if bad:
            counts["wrong"] += 1
            print(f"wrong: entry {md['source_index']} {md}", file=sys.stderr)
    print(", ".join(f"{k} {v}" for k, v in counts.items()) + f" ({time.time() - start:.1f} s)")
    return 1 if counts["wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
