"""rave's problems as an inspect_ai task: letter targets A..H, replies read by rave's own reader.

Run a task folder (`rave export DIR --harness inspect -o OUT`) with `inspect eval OUT/task.py@rave --model M`,
or, with rave pip-installed (its `inspect_ai` entry point), `inspect eval rave/raven -T data=OUT --model M`.
Each problem is one Sample: the system message is the style's (IBM's `Complete the Raven's progressive
matrix:`), the input the open matrix as `rave export` writes it (`context`), the choices its eight
candidate texts in the shown order, the target the answer's letter. inspect's `multiple_choice()` asks
for `ANSWER: $LETTER`; the scorer reads the reply by `rave score --text-answer letter`'s rule
(`rave.read_reply`), so the log's accuracy is rave's. `epochs=K` samples each problem K times and the
reducer `rave_vote` takes the most frequent readable letter (the smallest on a tie): IBM's
self-consistency vote over `nreturn` samples.
"""
import json
import os

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.scorer import (CORRECT, INCORRECT, Score, accuracy, grouped, score_reducer, scorer,
                               stderr)
from inspect_ai.solver import multiple_choice, system_message

LETTERS = "ABCDEFGH"


def export_file(data):
    """The export lines of a task folder (or the file itself)."""
    path = os.path.join(data, "rave.jsonl") if os.path.isdir(data) else data
    if not os.path.isfile(path):
        raise FileNotFoundError(f"{path}: no such file (give a folder of `rave export --harness inspect`)")
    return path


def sample_of(row):
    if row.get("answer") is None:
        raise ValueError(f"problem {row['id']}: no answer (export without --no-answer)")
    metadata = {"configuration": row["configuration"], "split": row["split"], "verdict": row["verdict"],
                "answer_index": row["answer"], "system": row.get("system", "")}
    if row.get("answers_shuffled") is not None:
        metadata["answers_shuffled"] = row["answers_shuffled"]
    return Sample(id=row["id"], input=row["context"], choices=list(row["choices"]),
                  target=LETTERS[row["answer"]], metadata=metadata)


def dataset(data, configuration=""):
    with open(export_file(data), encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    if configuration:
        rows = [r for r in rows if r["configuration"] == configuration]
        if not rows:
            raise ValueError(f"no problem of configuration '{configuration}' in {data}")
    return MemoryDataset([sample_of(r) for r in rows], name="rave")


@score_reducer(name="rave_vote")
def rave_vote():
    """IBM's self-consistency: the most frequent readable answer over the epochs (the smallest letter on a
    tie) is the answer; no readable one is wrong."""
    def reduce(scores):
        answers = [s.answer for s in scores if s.answer]
        if not answers:
            return Score(value=INCORRECT, answer="", explanation="no epoch named a candidate")
        best = min(set(answers), key=lambda a: (-answers.count(a), a))
        chosen = next(s for s in scores if s.answer == best)
        return Score(value=chosen.value, answer=best, explanation=f"{answers.count(best)} of {len(scores)} epochs")
    return reduce


@scorer(metrics=[accuracy(), stderr(), grouped(accuracy(), "configuration")])
def rave_letter():
    """The reply read by `rave score --text-answer letter`'s rule: correct when it names the target."""
    async def score(state, target):
        import rave
        reply = state.output.completion
        k = rave.read_reply(reply, "letter", len(state.choices))
        answer = LETTERS[k] if k is not None else ""
        return Score(value=CORRECT if answer == target.text else INCORRECT, answer=answer, explanation=reply)
    return score


def raven_task(data, configuration="", epochs=1, cot=False):
    rows = dataset(data, configuration)
    system = rows[0].metadata["system"] if len(rows) else ""
    solver = ([system_message(system)] if system else []) + [multiple_choice(cot=cot)]
    return Task(dataset=rows, solver=solver, scorer=rave_letter(),
                epochs=Epochs(epochs, "rave_vote") if epochs > 1 else None)


@task
def raven(data: str, configuration: str = "", epochs: int = 1, cot: bool = False):
    """rave's problems (a `rave export --harness inspect` folder, or its rave.jsonl) as multiple choice
    with letters A..H; `configuration` keeps one; `epochs` > 1 votes IBM's way (reducer rave_vote)."""
    return raven_task(data, configuration, epochs, cot)
