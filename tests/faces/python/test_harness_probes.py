"""`rave export PROBES --harness H`: a `rave probes` folder as task folders for lmms-eval, inspect and
VLMEvalKit. lmms-eval runs the folder end to end with an answerer that is right on the sheet tasks and
silent on the panel tasks (100 % and 0 %); inspect's mock model answering every probe scores 100 %, an
empty reply 0 %; the VLMEvalKit TSV holds each probe's answer as the letter of its option; the reading
rule reads a corpus of realistic replies as docs/probes.md says; lm-eval and the problem flags are
refused with one line."""
import base64
import csv
import glob
import json
import sys

import numpy as np
import pytest
from PIL import Image

import harness_support as hs
from rave.harness.probes import read_choice

DRIVER = '''"""lmms-eval's command line with one more model, "rave_probe_oracle": the probe's answer in a sentence
on the sheet tasks, an empty reply on the panel tasks."""
import sys
from lmms_eval.api.model import lmms


class Oracle(lmms):
    def __init__(self, **_):
        super().__init__()

    def generate_until(self, requests):
        out = []
        for context, gen_kwargs, doc_to_visual, doc_id, task, split in [r.args for r in requests]:
            doc = self.task_dict[task][split][doc_id]
            panels = "_panels_" in task
            assert len(doc_to_visual(doc)) == (len(doc["panels"]) if panels else 1)
            out.append("" if panels else f"Looking at the picture, the answer is **{doc['answer']}**.")
        return out

    def loglikelihood(self, requests):
        return [(0.0, False) for _ in requests]

    def generate_until_multi_round(self, requests):
        return self.generate_until(requests)


from lmms_eval.models import MODEL_REGISTRY_V2
from lmms_eval.models.registry_v2 import ModelManifest
MODEL_REGISTRY_V2.register_manifest(ModelManifest(model_id="rave_probe_oracle", simple_class_path="__main__.Oracle"))
from lmms_eval.__main__ import cli_evaluate
sys.argv = ["lmms_eval"] + sys.argv[1:]
cli_evaluate()
'''

SETS = [["none", "shape", "size", "color", "shape, size", "shape, color", "size, color", "shape, size, color"]]
SHAPES = ["triangle", "square", "pentagon", "hexagon", "circle"]
PLACES = ["top left", "top right", "bottom left", "bottom right"]
COUNTS = [str(n) for n in range(1, 10)]
CORPUS = [  # (reply, choices, what the rule reads)
    ("circle", SHAPES, "circle"), ("Circle.", SHAPES, "circle"), ("**hexagon**", SHAPES, "hexagon"),
    ("The shape is a pentagon.", SHAPES, "pentagon"),
    ("It looks like a square, but the answer is: triangle", SHAPES, "triangle"),
    ("I cannot see the image.", SHAPES, None), ("", SHAPES, None),
    ("Yes", ["yes", "no"], "yes"), ("No, they differ in size.", ["yes", "no"], "no"),
    ("Answer: no", ["yes", "no"], "no"), ("The sizes are the same, so yes.", ["yes", "no"], "yes"),
    ("bottom left", PLACES, "bottom left"), ("The empty place is the **top right** one.", PLACES, "top right"),
    ("Answer: 4", COUNTS, "4"), ("There are 6 shapes.", COUNTS, "6"),
    ("Row 1 holds 3, so the answer is 7", COUNTS, "7"), ("twelve", COUNTS, None),
    ("size, color", SETS[0], "size, color"), ("Size and colour... answer: size and color", SETS[0], "size, color"),
    ("Only the color changes.", SETS[0], "color"), ("None of them change.", SETS[0], "none"),
    ("Answer: shape, size, color", SETS[0], "shape, size, color"), ("the angle", SETS[0], None),
]


@pytest.fixture(scope="module")
def probes(rave_cli, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("probes")
    data = hs.make_set(rave_cli, tmp / "set")
    rave_cli("probes", data, "-o", tmp / "probes", "--panels", "-j", 2)
    rows = [json.loads(line) for line in (tmp / "probes" / "probes.jsonl").read_text().splitlines()]
    return tmp / "probes", rows


def export(rave_cli, probes_dir, out, harness):
    result = rave_cli("export", probes_dir, "--harness", harness, "-o", out)
    assert f"probes of 7 question types in {out} for {harness}" in result.stdout, result.stdout + result.stderr
    return out


@pytest.mark.parametrize("reply,choices,expected", CORPUS)
def test_the_reading_rule_reads_a_corpus_of_replies_as_documented(reply, choices, expected):
    assert read_choice(reply, choices) == expected


def test_the_vlmevalkit_tsv_holds_each_answer_as_its_option_letter(rave_cli, probes, tmp_path):
    probes_dir, rows = probes
    out = export(rave_cli, probes_dir, tmp_path / "vlm", "vlmevalkit")
    csv.field_size_limit(1 << 30)
    for name, form in (("RAVE_PROBES", "sheet"), ("RAVE_PROBES_PANELS", "panels")):
        with open(out / f"{name}.tsv", encoding="utf-8", newline="") as f:
            table = list(csv.DictReader(f, delimiter="\t"))
        assert len(table) == len(rows)
        for line, row in zip(table, rows):
            assert line["id"] == row["id"] and line["category"] == row["type"]
            assert line[line["answer"]] == row["answer"]
            assert [line[k] for k in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:len(row["choices"])]] == row["choices"]
            assert row[f"{form}_prompt"].startswith(line["question"] + " Answer ")
            images = [line["image"]] if form == "sheet" else eval(line["image"])  # VLMEvalKit's toliststr form
            paths = [row["sheet"]] if form == "sheet" else row["panels"]
            assert [base64.b64decode(i) for i in images] == [(probes_dir / p).read_bytes() for p in paths]


def test_lmms_eval_scores_a_right_answerer_100_and_a_silent_one_0(rave_cli, probes, tmp_path):
    probes_dir, rows = probes
    tasks = export(rave_cli, probes_dir, tmp_path / "lmms", "lmms-eval")
    env = hs.environment(tmp_path)
    driver = tmp_path / "oracle.py"
    driver.write_text(DRIVER)
    hs.run([sys.executable, driver, "--model", "rave_probe_oracle", "--tasks", "rave_probes,rave_probes_panels",
            "--include_path", tasks, "--log_samples", "--output_path", tmp_path / "runs"], env)
    (results,) = glob.glob(str(tmp_path / "runs" / "**" / "*_results.json"), recursive=True)
    with open(results, encoding="utf-8") as f:
        scores = json.load(f)["results"]
    assert scores["rave_probes"]["accuracy,none"] == 1.0
    assert scores["rave_probes_panels"]["accuracy,none"] == 0.0
    for kind in {r["type"] for r in rows}:
        assert scores[f"rave_probe_{kind}"]["accuracy,none"] == 1.0


def test_lmms_eval_shows_the_probes_images(rave_cli, probes, tmp_path, monkeypatch):
    probes_dir, rows = probes
    tasks = export(rave_cli, probes_dir, tmp_path / "lmms", "lmms-eval")
    for key, value in hs.environment(tmp_path).items():
        monkeypatch.setenv(key, value)
    from lmms_eval.tasks import TaskManager, get_task_dict
    loaded = get_task_dict(["rave_probe_count", "rave_probe_panels_same"],
                           TaskManager(include_path=str(tasks), include_defaults=False))
    seen = 0
    for name, task in loaded.items():
        for doc in task.test_docs():
            paths = doc["panels"] if "_panels_" in name else [doc["sheet"]]
            shown = [np.asarray(im) for im in task.doc_to_visual(doc)]
            drawn = [np.asarray(Image.open(probes_dir / p).convert("RGB")) for p in paths]
            assert len(drawn) == len(shown) and all(np.array_equal(a, b) for a, b in zip(drawn, shown))
            assert task.doc_to_text(doc) in (doc["sheet_prompt"], doc["panels_prompt"])
            seen += 1
    assert seen == sum(r["type"] in ("count", "same") for r in rows)


def mock(rows, probes_dir, reply):
    """A mockllm replying reply(answer) to each probe, which it knows by its text and its image (inspect hands
    the model the image as a data URI)."""
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    answers = {(r["sheet_prompt"], (probes_dir / r["sheet"]).read_bytes()): r["answer"] for r in rows}

    def respond(messages, tools, tool_choice, config):
        message = messages[-1]
        image = next(part.image for part in message.content if part.type == "image")
        answer = answers[(message.text, base64.b64decode(image.split(",", 1)[1]))]
        output = ModelOutput.from_content(model="mockllm/model", content=reply(answer))
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tiktoken download
        return output

    return get_model("mockllm/model", custom_outputs=respond)


@pytest.mark.parametrize("reply,expected", [(lambda a: f"ANSWER: {a}", 1.0), (lambda a: "", 0.0)])
def test_inspect_scores_a_right_answerer_100_and_a_silent_one_0(rave_cli, probes, tmp_path, monkeypatch, reply,
                                                               expected):
    probes_dir, rows = probes
    tasks = export(rave_cli, probes_dir, tmp_path / "inspect", "inspect")
    for key, value in hs.environment(tmp_path).items():
        monkeypatch.setenv(key, value)
    from inspect_ai import eval as inspect_eval
    from rave.harness import probes_inspect
    (log,) = inspect_eval(probes_inspect.probes_task(str(tasks)), model=mock(rows, probes_dir, reply),
                          log_dir=str(tmp_path / "logs"), display="none")
    assert log.status == "success" and len(log.samples) == len(rows)
    assert log.results.scores[0].metrics["accuracy"].value == expected


@pytest.mark.parametrize("flags,message", [
    (["--harness", "lm-eval"], "lm-eval's tasks are text"),
    (["--harness", "inspect", "--answers-shuffled", "3"], "only --task-name and --split apply"),
])
def test_what_does_not_apply_to_probes_is_refused_in_one_line(rave_cli, probes, tmp_path, flags, message):
    probes_dir, _ = probes
    result = rave_cli("export", probes_dir, *flags, "-o", tmp_path / "out", check=False)
    assert result.returncode == 1 and message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()
