"""`rave export --harness inspect`: the task folder run by inspect_ai (`inspect eval OUT/task.py`) with its
mock model, and through its Python API with mock models whose replies are always right, always wrong, or
right in 2 of 3 epochs (IBM's self-consistency vote, reducer rave_vote); in every run the log's accuracy,
overall and per configuration, equals `rave score` of the replies it logged (`rave harness-answers`),
through a shuffled candidate order."""
import glob
import json
import sys

import pytest

import harness_support as hs
import rave

pytest.importorskip("inspect_ai")
CONFIGS = 7
# inspect's mock model counts its prompt's tokens with tiktoken's o200k_base, which tiktoken downloads on
# first use; offline, this driver of inspect's own command line counts a token per 4 characters instead.
OFFLINE_DRIVER = '''import sys
from inspect_ai.model._providers.mockllm import MockLLM


async def count_text_tokens(self, text):
    return max(1, len(text) // 4)


MockLLM.count_text_tokens = count_text_tokens
from inspect_ai._cli.main import main
sys.argv = ["inspect"] + sys.argv[1:]
main()
'''


@pytest.fixture(scope="module")
def folder(rave_cli, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("inspect")
    data = hs.make_set(rave_cli, tmp / "set")
    return data, hs.export(rave_cli, data, tmp / "tasks", "inspect")


def log_figures(path):
    """(accuracy, {configuration: accuracy}) of an inspect log, as fractions."""
    from inspect_ai.log import read_eval_log
    log = read_eval_log(path)
    assert log.status == "success", log.error
    metrics = log.results.scores[0].metrics
    return metrics["accuracy"].value, {k: m.value for k, m in metrics.items() if k in rave.CONFIGS}


def assert_equal(log, data, tmp, env):
    accuracy, per_config = log_figures(log)
    score, answers = hs.rave_score(env, [log], data, tmp / "answers.jsonl", "--text-answer", "letter")
    assert len(answers) == 3 * CONFIGS and all(a["answers_shuffled"] == hs.SEED for a in answers)
    assert score["accuracy"] == pytest.approx(100 * accuracy, abs=1e-9)
    assert len(per_config) == CONFIGS and hs.per_configuration(score).keys() == per_config.keys()
    for config, value in per_config.items():
        assert hs.per_configuration(score)[config] == pytest.approx(100 * value, abs=1e-9), config
    return score


def test_inspect_eval_with_the_mock_model_equals_rave_score(folder, tmp_path):
    data, tasks = folder
    env = hs.environment(tmp_path)
    driver = tmp_path / "inspect_offline.py"
    driver.write_text(OFFLINE_DRIVER)
    hs.run([sys.executable, driver, "eval", f"{tasks / 'task.py'}@rave", "--model", "mockllm/model",
            "--log-dir", tmp_path / "logs", "--log-format", "eval"], env)
    (log,) = glob.glob(str(tmp_path / "logs" / "*.eval"))
    score = assert_equal(log, data, tmp_path, env)
    assert score["accuracy"] == 0 and score["unreadable"] == 3 * CONFIGS  # "Default output from mockllm/model"


def test_inspect_eval_rave_raven_finds_the_task_through_pyprojects_entry_point(folder, tmp_path, source_dir):
    """inspect names a package's tasks `package/task` only for a package in a site-packages folder (pip
    install .): the test lays the built package out as one, with pyproject.toml's entry point."""
    import os
    import tomllib
    data, tasks = folder
    points = tomllib.loads((source_dir / "pyproject.toml").read_text())["project"]["entry-points"]["inspect_ai"]
    site = tmp_path / "site-packages"
    info = site / "rave-0.dist-info"
    info.mkdir(parents=True)
    (site / "rave").symlink_to(os.path.dirname(rave.__file__))
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: rave\nVersion: 0\n")
    (info / "entry_points.txt").write_text("[inspect_ai]\n" + "".join(f"{k} = {v}\n" for k, v in points.items()))
    env = dict(hs.environment(tmp_path), PYTHONPATH=str(site))
    driver = tmp_path / "inspect_offline.py"
    driver.write_text(OFFLINE_DRIVER)
    hs.run([sys.executable, driver, "eval", "rave/raven", "-T", f"data={tasks}", "-T", "configuration=center_single",
            "--model", "mockllm/model", "--log-dir", tmp_path / "logs"], env)
    (log,) = glob.glob(str(tmp_path / "logs" / "*.eval"))
    from inspect_ai.log import read_eval_log
    header = read_eval_log(log, header_only=True)
    assert header.status == "success" and header.eval.task == "rave/raven"
    assert header.results.total_samples == 3  # the center_single problems


def mock_answerer(rows, replies):
    """A mockllm whose reply to problem p in its k-th call is replies(p's answer letter, k)."""
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    shown = {}
    for row in rows:
        options = "\n".join(f"{letter}) {c}" for letter, c in zip("ABCDEFGH", row["choices"]))
        shown[row["context"] + "\n\n" + options] = "ABCDEFGH"[row["answer"]]
    calls = {}

    def reply(messages, tools, tool_choice, config):
        text = messages[-1].text
        (key,) = [k for k in shown if k in text]
        calls[key] = calls.get(key, 0) + 1
        output = ModelOutput.from_content(model="mockllm/model", content=replies(shown[key], calls[key]))
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)  # no tiktoken
        return output

    return get_model("mockllm/model", custom_outputs=reply)


def other(letter):
    return "ABCDEFGH"[("ABCDEFGH".index(letter) + 3) % 8]


@pytest.mark.parametrize("case,epochs,replies,expected", [
    ("right", 1, lambda answer, k: f"ANSWER: {answer}", 100.0),
    ("wrong", 1, lambda answer, k: f"ANSWER: {other(answer)}", 0.0),
    ("voted", 3, lambda answer, k: f"The answer is **{answer if k != 2 else other(answer)}**.", 100.0),
])
def test_mock_answerers_score_as_rave_scores_them(folder, tmp_path, case, epochs, replies, expected):
    from inspect_ai import eval as inspect_eval
    from rave.harness import inspect_task
    data, tasks = folder
    env = hs.environment(tmp_path)
    rows = [json.loads(line) for line in (tasks / "rave.jsonl").read_text().splitlines()]
    task = inspect_task.raven_task(str(tasks), epochs=epochs)
    (log,) = inspect_eval(task, model=mock_answerer(rows, replies), log_dir=str(tmp_path / "logs"),
                          display="none", log_format="eval")
    score = assert_equal(log.location, data, tmp_path, env)
    assert score["accuracy"] == expected and score["unreadable"] == 0
