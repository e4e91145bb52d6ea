"""The VLMEvalKit files (`rave export --harness vlmevalkit`): two TSVs in its documented custom
multiple-choice layout (docs/en/Development.md: `index, image` (base64), `question`, the options `A`..`H`,
`answer` (a letter), `category`), which VLMEvalKit loads as a CustomMCQDataset when the file lies in
`$LMUData` and is named after the dataset:

- `<NAME>_sheet.tsv`: one image a problem, the answer-free sheet of `rave show --vlm`;
- `<NAME>_panels.tsv`: the N*N-1 context panels then the 8 candidates, `image` a list of base64 PNGs
  (VLMEvalKit's multi-image form, read by its `toliststr`).

`question` is rave's `sheet_prompt` / `panels_prompt` without its last sentence (which asks for the
number 1-8: VLMEvalKit appends the options and asks for one of them); option X is "candidate k", the
k-th candidate as the sheet labels it; `category` is the configuration. rave's own columns follow:
`id` (the problem), `split` and `answers_shuffled` (the seed of the shown order, -1 for none), which
VLMEvalKit carries into its prediction file, so `python -m rave harness-answers` maps them back.
"""
import base64
import csv
import os

from rave.harness import _common as c

COLUMNS = ["index", "image", "question", *c.LETTERS, "answer", "category", "id", "split", "answers_shuffled"]
ASK = " Answer with the number of the candidate (1-8) only."  # the end of rave's VLM prompts


def _b64(folder, path):
    with open(os.path.join(folder, path), "rb") as f:
        return base64.b64encode(f.read()).decode("ascii")


def question(prompt):
    if not prompt.endswith(ASK):
        raise c.HarnessError(f"rave's VLM prompt no longer ends with '{ASK.strip()}'")
    return prompt[:-len(ASK)]


def row_of(index, line, images, form):
    if form == "sheet":
        image, prompt = _b64(images, line["sheet"]), line["sheet_prompt"]
    else:
        image, prompt = str([_b64(images, p) for p in line["panels"]]), line["panels_prompt"]
    seed = line.get("answers_shuffled")
    row = {"index": index, "image": image, "question": question(prompt),
           "answer": c.LETTERS[line["target"]], "category": line["configuration"], "id": line["id"],
           "split": line["split"], "answers_shuffled": -1 if seed is None else seed}
    row.update({letter: f"candidate {k + 1}" for k, letter in enumerate(c.LETTERS)})
    return row


def write_files(folder, lines, images, name):
    """Writes <name>_sheet.tsv and <name>_panels.tsv; returns their dataset names."""
    names = []
    for form in ("sheet", "panels"):
        dataset = f"{name}_{form}"
        with open(os.path.join(folder, f"{dataset}.tsv"), "w", encoding="utf-8", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=COLUMNS, delimiter="\t", lineterminator="\n")
            writer.writeheader()
            for index, line in enumerate(lines):
                writer.writerow(row_of(index, line, images, form))
        names.append(dataset)
    return names
