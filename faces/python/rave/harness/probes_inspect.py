"""rave's perception probes as an inspect_ai task: the image (the sheet, or the panels) and the question in
one user message, the answer one of the probe's choices, the reply read by
rave.harness.probes.read_choice; accuracy overall and grouped by question type."""
import json
import os

from inspect_ai import Task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, ContentImage, ContentText
from inspect_ai.scorer import CORRECT, INCORRECT, Score, accuracy, grouped, scorer, stderr
from inspect_ai.solver import generate

from rave.harness.probes import read_choice


def sample_of(row, folder, form):
    paths = [row["sheet"]] if form == "sheet" else row["panels"]
    content = [ContentImage(image=os.path.join(folder, "images", path)) for path in paths]
    content.append(ContentText(text=row[f"{form}_prompt"]))
    return Sample(id=row["id"], input=[ChatMessageUser(content=content)], target=row["answer"],
                  metadata={"type": row["type"], "choices": row["choices"], "problem": row["problem"],
                            "configuration": row["configuration"], "split": row["split"]})


def dataset(folder, kind="", form="sheet"):
    if form not in ("sheet", "panels"):
        raise ValueError(f"form must be sheet or panels, not '{form}'")
    with open(os.path.join(folder, "probes.jsonl"), encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    if kind:
        rows = [r for r in rows if r["type"] == kind]
    if not rows:
        raise ValueError(f"{folder}: no probes{' of type ' + kind if kind else ''}")
    if form == "panels" and "panels" not in rows[0]:
        raise ValueError(f"{folder}: no panel images (make the probes with rave probes --panels)")
    return MemoryDataset([sample_of(r, folder, form) for r in rows], name="rave-probes")


@scorer(metrics=[accuracy(), stderr(), grouped(accuracy(), "type")])
def probe_choice():
    """Correct when the reply names the answer by rave's reading rule."""
    async def score(state, target):
        reply = state.output.completion
        named = read_choice(reply, state.metadata["choices"])
        return Score(value=CORRECT if named == target.text else INCORRECT, answer=named or "", explanation=reply)
    return score


def probes_task(folder, kind="", form="sheet"):
    return Task(dataset=dataset(folder, kind, form), solver=[generate()], scorer=probe_choice())
