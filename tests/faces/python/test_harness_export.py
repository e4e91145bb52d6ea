"""`rave export DIR --harness H -o OUT` (python -m rave export-harness) without running a harness: the
prompts are rave export's own character for character (lm-raven's choice_prompts, IBM's queries), the
options of each form, its errors, and rave.read_reply, the reader the folders score with, against the
reply corpus `rave score` is tested on."""
import json
import pathlib

import pytest

import harness_support as hs
import rave
from conftest import cli_error


@pytest.fixture(scope="module")
def data(rave_cli, tmp_path_factory):
    return hs.make_set(rave_cli, tmp_path_factory.mktemp("harness-export") / "set")


def lines(path):
    return [json.loads(t) for t in pathlib.Path(path).read_text().splitlines()]


def test_lm_raven_text_and_continuation_are_its_choice_prompts_and_it_has_no_chat_tasks(rave_cli, data, tmp_path):
    rave_cli("export", data, "--harness", "lm-eval", "--style", "lm-raven", "--rows-shown", 2, "-o", tmp_path / "lm")
    rave_cli("export", data, "-f", "text", "--style", "lm-raven", "--rows-shown", 2, "-o", tmp_path / "lm.jsonl")
    docs, rows = lines(tmp_path / "lm" / "docs.jsonl"), lines(tmp_path / "lm.jsonl")
    assert [d["id"] for d in docs] == [r["id"] for r in rows] and len(docs) == 21
    for d, r in zip(docs, rows):
        assert [d["mc_text"] + c for c in d["mc_choices"]] == r["choice_prompts"]
        assert d["mc_choices"][0].endswith(";") and d["answer"] == r["answer"]
    assert not list((tmp_path / "lm").glob("*gen*")) and "no chat" in (tmp_path / "lm" / "README.md").read_text()


def test_ibm_2024_chat_query_is_rave_exports_and_samples_are_voted(rave_cli, data, tmp_path):
    rave_cli("export", data, "--harness", "lm-eval", "--style", "ibm-2024", "--samples", 7, "--split", "train",
             "-o", tmp_path / "lm")
    rave_cli("export", data, "-f", "text", "--style", "ibm-2024", "-o", tmp_path / "lm.jsonl")
    docs, rows = lines(tmp_path / "lm" / "docs.jsonl"), lines(tmp_path / "lm.jsonl")
    assert [(d["prompt"], d["system"]) for d in docs] == [(r["prompt"], r["system"]) for r in rows]
    assert all(d["prompt"].endswith("\nCorrect Answer #") for d in docs)
    gen = (tmp_path / "lm" / "rave_gen_center_single.yaml").read_text()
    assert "repeats: 7\n" in gen and "do_sample: true" in gen
    marker = json.loads((tmp_path / "lm" / "rave-harness.json").read_text())
    assert marker["harness"] == "lm-eval" and marker["problems"] == 21 and marker["style"] == "ibm-2024"


def test_drop_ambiguous_and_split_narrow_every_form(rave_cli, data, tmp_path):
    rave_cli("export", data, "--harness", "vlmevalkit", "--drop-ambiguous", "-o", tmp_path / "v")
    rave_cli("export", data, "-f", "json", "--drop-ambiguous", "-o", tmp_path / "u.jsonl")
    unique = [r["id"] for r in lines(tmp_path / "u.jsonl")]
    text = (tmp_path / "v" / "RAVE_sheet.tsv").read_text().splitlines()
    assert len(text) == 1 + len(unique)
    result = rave_cli("export", data, "--harness", "inspect", "--split", "test", "-o", tmp_path / "i", check=False)
    assert result.returncode == 1 and cli_error(result) == "no problem of split 'test' in the set"
    assert not (tmp_path / "i").exists()


def test_a_previous_task_folder_is_replaced_and_any_other_folder_refused(rave_cli, data, tmp_path):
    out = tmp_path / "tasks"
    rave_cli("export", data, "--harness", "inspect", "-o", out)
    (out / "stale.txt").write_text("from before")
    rave_cli("export", data, "--harness", "inspect", "-o", out, "--answers-shuffled", 3)
    assert not (out / "stale.txt").exists() and {r["answers_shuffled"] for r in lines(out / "rave.jsonl")} == {3}
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("keep")
    result = rave_cli("export", data, "--harness", "lm-eval", "-o", other, check=False)
    assert result.returncode == 1 and "holds other files" in cli_error(result)
    assert [p.name for p in other.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize("flags,message", [
    (["--harness", "lm-eval"], "--harness writes a task folder: give it with -o OUT"),
    (["--harness", "lm-eval", "-o", "x", "--no-answer"], "--no-answer does not apply to --harness"),
    (["--harness", "inspect", "-o", "x", "-f", "json"], "--format does not apply to --harness"),
    (["--harness", "vlmevalkit", "-o", "x", "--style", "lm-raven"], "--style does not apply to --harness vlmevalkit"),
    (["--harness", "inspect", "-o", "x", "--samples", "3"], "--samples is for --harness lm-eval"),
    (["--task-name", "x", "-o", "x.jsonl"], "--task-name is for --harness only"),
])
def test_flags_that_do_not_apply_are_usage_errors(rave_cli, data, flags, message):
    result = rave_cli("export", data, *flags, check=False)
    assert result.returncode == 2 and cli_error(result).startswith(message)


def test_read_reply_reads_the_corpus_rave_score_is_tested_on(source_dir):
    corpus = lines(source_dir / "tests" / "data" / "evaluation" / "replies" / "corpus.jsonl")
    assert len(corpus) >= 50
    for case in corpus:
        form = {"numbers": "label", "letters": "letter", "indices": "answer-index"}[case["labels"]]
        expected = None if case["label"] is None else (
            int(case["label"]) - 1 if form == "label" else int(case["label"]) if form == "answer-index"
            else "ABCDEFGH".index(case["label"]))
        assert rave.read_reply(case["reply"], form) == expected, case
    assert rave.read_reply(["B", "no idea", "C", "C"], "letter") == 2  # the most frequent readable sample
    assert rave.read_reply("Answer #5: (6,0.5,30)", "index") == 5  # IBM: the first number
    assert rave.read_reply("no number", "index") == 0 and rave.read_reply("12", "index") == 0  # guard_answer
    assert rave.read_reply("Answer #5: (6,0.5,30)", "answer-index") == 5  # the reply rule, 0-based
    assert rave.read_reply("(6,0.5,30)", "answer-index") is None  # values name no "Answer #k"
    with pytest.raises(ValueError, match="form must be letter, label, index or answer-index"):
        rave.read_reply("4", "values")
