"""`rave export --harness lmms-eval`: lmms-eval loads the task folder, and its doc_to_visual returns the
answer-free sheet (the PNG `rave show --vlm` draws) or the 16 panels, which equal the npz panels pixel
for pixel in the shown (shuffled) order; its command line runs the folder end to end offline with its
`dummy` model (whose reply "A" names no label: 0 %) and with an answerer that is right on the sheets and
wrong on the panels (100 % and 0 %), and its accuracy, per task and per group, equals `rave score` of the
replies it logged (`rave harness-answers`)."""
import glob
import json
import sys

import numpy as np
import pytest

import harness_support as hs
import rave

pytest.importorskip("lmms_eval")
CONFIGS = 7
DRIVER = '''"""lmms-eval's command line with one more model, "rave_oracle": right on the sheet tasks, wrong on the
panel tasks, each reply a sentence naming the label."""
import sys
from lmms_eval.api.model import lmms


class Oracle(lmms):
    def __init__(self, **_):
        super().__init__()

    def generate_until(self, requests):
        out = []
        for context, gen_kwargs, doc_to_visual, doc_id, task, split in [r.args for r in requests]:
            doc = self.task_dict[task][split][doc_id]
            assert len(doc_to_visual(doc)) == (1 if "_sheet_" in task else 16)
            label = doc["answer"] if "_sheet_" in task else doc["answer"] % 8 + 1
            out.append(f"The missing panel is candidate {label}.")
        return out

    def loglikelihood(self, requests):
        return [(0.0, False) for _ in requests]

    def generate_until_multi_round(self, requests):
        return self.generate_until(requests)


from lmms_eval.models import MODEL_REGISTRY_V2
from lmms_eval.models.registry_v2 import ModelManifest
MODEL_REGISTRY_V2.register_manifest(ModelManifest(model_id="rave_oracle", simple_class_path="__main__.Oracle"))
from lmms_eval.__main__ import cli_evaluate
sys.argv = ["lmms_eval"] + sys.argv[1:]
cli_evaluate()
'''


@pytest.fixture(scope="module")
def folder(rave_cli, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("lmms")
    data = hs.make_set(rave_cli, tmp / "set")
    return data, hs.export(rave_cli, data, tmp / "tasks", "lmms-eval")


def leaf_tasks(task_dict):
    for name, task in task_dict.items():
        if isinstance(task, dict):
            yield from leaf_tasks(task)
        else:
            yield name, task


def test_doc_to_visual_returns_the_sheet_and_the_npz_panels_in_the_shown_order(folder, tmp_path, monkeypatch):
    data, tasks = folder
    for key, value in hs.environment(tmp_path).items():
        monkeypatch.setenv(key, value)
    from lmms_eval.tasks import TaskManager, get_task_dict
    loaded = dict(leaf_tasks(get_task_dict(["rave_sheet", "rave_panels"],
                                            TaskManager(include_path=str(tasks), include_defaults=False))))
    assert len(loaded) == 2 * CONFIGS
    checked = 0
    for name, task in loaded.items():
        for doc in task.test_docs():
            images = [np.asarray(im) for im in task.doc_to_visual(doc)]
            assert all(im.ndim == 3 and im.shape[2] == 3 for im in images)  # RGB, three equal channels
            assert all((im == im[..., :1]).all() for im in images)
            gray = [im[..., 0] for im in images]
            npz = rave.load_arrays(data / f"{doc['id']}.npz")
            if "_sheet_" in name:
                sheet = np.asarray(__import__("PIL.Image", fromlist=["Image"]).open(tasks / "images" / doc["sheet"]))
                assert len(gray) == 1 and np.array_equal(gray[0], sheet)
                assert task.doc_to_text(doc).endswith("Answer with the number of the candidate (1-8) only.")
                continue
            assert len(gray) == 16 and np.array_equal(np.stack(gray[:8]), npz["image"][:8])
            shown = [next(j for j in range(8) if np.array_equal(g, npz["image"][8 + j])) for g in gray[8:]]
            assert sorted(shown) == list(range(8))  # a permutation of the npz candidates
            assert shown[doc["answer"] - 1] == int(npz["target"])  # the label shown is the npz answer
            assert doc["answers_shuffled"] == hs.SEED
            checked += 1
    assert checked == 3 * CONFIGS


def lmms_eval(env, out, folder, model, *more, driver=None):
    head = [sys.executable, driver] if driver else [sys.executable, "-m", "lmms_eval"]
    hs.run(head + ["--model", model, "--tasks", "rave_sheet,rave_panels", "--include_path", folder,
                   "--log_samples", "--output_path", out, *more], env)
    (results,) = glob.glob(str(out / "**" / "*_results.json"), recursive=True)
    with open(results, encoding="utf-8") as f:
        return json.load(f)["results"], sorted(glob.glob(str(out / "**" / "*_samples_*.jsonl"), recursive=True))


def check_form(env, tmp, data, results, samples, form):
    files = [s for s in samples if f"_samples_rave_{form}_" in s]
    assert len(files) == CONFIGS
    score, answers = hs.rave_score(env, files, data, tmp / f"{form}.jsonl")
    assert len(answers) == 3 * CONFIGS and all(a["answers_shuffled"] == hs.SEED for a in answers)
    assert score["accuracy"] == pytest.approx(100 * results[f"rave_{form}"]["accuracy,none"], abs=1e-9)
    columns = hs.per_configuration(score)
    assert len(columns) == CONFIGS
    for config, value in columns.items():
        assert value == pytest.approx(100 * results[f"rave_{form}_{config}"]["accuracy,none"], abs=1e-9)
    return score


def test_the_dummy_model_scores_0_as_rave_scores_it(folder, tmp_path):
    data, tasks = folder
    env = hs.environment(tmp_path)
    results, samples = lmms_eval(env, tmp_path / "runs", tasks, "dummy")  # replies "A": no label 1..8
    for form in ("sheet", "panels"):
        score = check_form(env, tmp_path, data, results, samples, form)
        assert score["accuracy"] == 0 and score["unreadable"] == 3 * CONFIGS


def test_an_answerer_right_on_the_sheets_and_wrong_on_the_panels_scores_100_and_0(folder, tmp_path):
    data, tasks = folder
    env = hs.environment(tmp_path)
    driver = tmp_path / "oracle_lmms_eval.py"
    driver.write_text(DRIVER)
    results, samples = lmms_eval(env, tmp_path / "runs", tasks, "rave_oracle", driver=driver)
    assert check_form(env, tmp_path, data, results, samples, "sheet")["accuracy"] == 100
    assert check_form(env, tmp_path, data, results, samples, "panels")["accuracy"] == 0
