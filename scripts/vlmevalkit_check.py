#!/usr/bin/env python3
"""`rave export --harness vlmevalkit`'s TSVs through VLMEvalKit's own loading and scoring code.

VLMEvalKit (open-compass/VLMEvalKit) is not on PyPI; this script runs *its* code (a checkout you give
on PYTHONPATH, with the modules it imports; none of it is in this repository) beside rave: it builds
the datasets RAVE_sheet and RAVE_panels from $LMUData as VLMEvalKit does (CustomMCQDataset), checks
every line's prompt images against the npz panels (the panels a permutation of the candidates), then
writes prediction files in VLMEvalKit's own layout for nine reply forms and compares its
exact-matching accuracy with `rave score --text-answer letter` of `rave harness-answers` of the same
file (docs/harnesses.md#vlmevalkit has the figures).

  git -C VLMEvalKit.git archive HEAD vlmeval | tar -x -C /tmp/vlmeval
  rave export set --harness vlmevalkit -o tsv --answers-shuffled 5
  cd /tmp/vlmeval && PYTHONPATH=.:DEPS LMUData=$OLDPWD/tsv python vlmevalkit_check.py SET WORK path/to/rave
"""
import json
import os
import subprocess
import sys

import numpy as np
from PIL import Image

import rave
from vlmeval.dataset import build_dataset

data, work, cli = sys.argv[1:4]  # the problems, a scratch folder, the rave executable
out = {}
for form in ("sheet", "panels"):
    ds = build_dataset(f"RAVE_{form}")
    print(type(ds).__name__, len(ds))
    for i in range(len(ds)):
        line = ds.data.iloc[i]
        msgs = ds.build_prompt(line)
        images = [np.asarray(Image.open(m["value"])) for m in msgs if m["type"] == "image"]
        text = [m["value"] for m in msgs if m["type"] == "text"][0]
        npz = rave.load_arrays(os.path.join(data, line["id"] + ".npz"))["image"]
        if form == "panels":
            assert len(images) == 16 and all(np.array_equal(a, b) for a, b in zip(images[:8], npz[:8]))
            shown = [next(j for j in range(8) if np.array_equal(g, npz[8 + j])) for g in images[8:]]
            assert sorted(shown) == list(range(8))
        else:
            assert len(images) == 1
        if i == 0:
            print(repr(text))
    # predictions: VLMEvalKit's own file layout, {model}_{dataset}.xlsx, evaluated by exact matching
    replies = {
        "right": lambda a: a, "wrong": lambda a: "ABCDEFGH"[("ABCDEFGH".index(a) + 1) % 8],
        "sentence": lambda a: f"The answer is {a}.", "option": lambda a: f"{a}. candidate {'ABCDEFGH'.index(a) + 1}",
        "paren": lambda a: f"({a})", "lower": lambda a: a.lower(), "refusal": lambda a: "I cannot tell.",
        "bold": lambda a: f"**{a}**", "answer_colon": lambda a: f"Answer: {a}",
    }
    for name, reply in replies.items():
        table = ds.data.drop(columns=["image"]).copy()
        table["prediction"] = [reply(a) for a in table["answer"]]
        model_dir = os.path.join(work, name, form)
        os.makedirs(model_dir, exist_ok=True)
        pred = os.path.join(model_dir, f"{name}_RAVE_{form}.xlsx")
        table.to_excel(pred, index=False)
        result = ds.evaluate(pred, model="exact_matching", nproc=1)
        assert len(result) == 1, result  # one split in the set: one row
        acc = float(result["Overall"].iloc[0])
        ans = os.path.join(model_dir, "answers.jsonl")
        subprocess.run([cli, "harness-answers", pred, "-o", ans], check=True, capture_output=True)
        score = json.loads(subprocess.run([cli, "score", ans, "--data", data, "--text-answer", "letter", "--json"],
                                          check=True, capture_output=True, text=True).stdout)
        out[f"{form}/{name}"] = (round(100 * acc, 2), round(score["accuracy"], 2))
        print(form, name, "VLMEvalKit", round(100 * acc, 2), "rave", round(score["accuracy"], 2))
json.dump(out, open(os.path.join(work, "summary.json"), "w"), indent=1)
