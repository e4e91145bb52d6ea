"""rave.gym, the RL environment, through the real reasoning-gym package: entries made on the fly,
the same for a seed and any thread count, questions that are `rave export`'s and `rave show --vlm`'s
own, rewards checked against the solver on every entry (a perfect answerer gets 1.0 exactly where
the answer is proved unique, every other reply 0), and verl's parquet read back field by field."""
import json
import os
import re
import subprocess
import sys

import pytest

import rave

os.environ["HF_DATASETS_OFFLINE"] = "1"  # read when datasets is imported: nothing from the network

reasoning_gym = pytest.importorskip("reasoning_gym")
import rave.gym  # noqa: E402  (registers rave_matrices with reasoning_gym)
from rave import verl_reward  # noqa: E402


def reply(text_answer, candidate, style):
    """A model's reply naming `candidate` (0-based) in the entry's labelling, in one of a few styles."""
    name = f"Answer #{candidate}" if text_answer == "answer-index" else str(candidate + 1)
    return {
        "bare": name if text_answer == "label" else str(candidate),
        "reasoning": f"Row 1 keeps the shape and the size grows, so the answer is {name}.",
        "tagged": f"<think>the rows progress</think>\n<answer>{name}</answer>",
    }[style]


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


def problem_of(entry):
    md = entry["metadata"]
    values = md["values"]
    return rave.generate(md["configuration"], md["index"], seed=md["seed"], answers=md["answers"],
                         grid=md["grid"], values=values, confounders=md["confounders"], attempt=md["attempt"])


def test_created_through_reasoning_gym():
    ds = reasoning_gym.create_dataset("rave_matrices", size=21, seed=3)
    assert len(ds) == 21
    entries = list(ds)
    assert len(entries) == 21
    for i, e in enumerate(entries):
        assert set(e) == {"question", "answer", "metadata"}
        assert e["metadata"]["source_dataset"] == "rave_matrices" and e["metadata"]["source_index"] == i
        assert e["metadata"]["configuration"] == rave.CONFIGS[i % 7] and e["metadata"]["index"] == i // 7
        assert e["question"].startswith("Complete the Raven's progressive matrix:\nrow 1: ")
        assert "Answer #7: " in e["question"]
        assert ds.score_answer(e["answer"], e) == 1.0
        assert e == ds[i]
    score = reasoning_gym.get_score_answer_fn("rave_matrices")
    assert score(entries[0]["answer"], entries[0]) == 1.0
    curriculum = reasoning_gym.factory.create_curriculum("rave_matrices")
    curriculum.set_attr_level("difficulty", 7)
    config = curriculum.generate_configuration({"size": 2, "seed": 1})
    hard = rave.gym.RaveDataset(config)
    assert hard[0]["metadata"]["grid"] == 10 and hard[0]["metadata"]["values"] == 1000


def dumped(ds):
    return [json.dumps({**e, "images": [png.hex() for png in e.get("images", [])]}, sort_keys=True) for e in ds]


def test_the_same_entries_for_a_seed_and_any_thread_count():
    for form in ("text", "panels"):
        a = dumped(reasoning_gym.create_dataset("rave_matrices", size=30, seed=11, form=form, image_size=64))
        b = dumped(reasoning_gym.create_dataset("rave_matrices", size=30, seed=11, form=form, image_size=64, threads=2))
        c = dumped(reasoning_gym.create_dataset("rave_matrices", size=30, seed=12, form=form, image_size=64))
        assert a == b
        assert a != c
        sub = dumped(rave.gym.create_dataset(10, seed=11, form=form, image_size=64))
        assert a[:10] == sub  # an entry depends on (seed, index), not on the size
    reseeded = reasoning_gym.create_dataset("rave_matrices", size=5)
    assert isinstance(reseeded.seed, int)


def test_questions_are_the_exporters_and_the_image_benchmarks(rave_cli, tmp_path):
    """`rave generate --unique-only`, `rave export --rows-shown all --prefix ''` and `rave show --vlm`
    give the same problems, texts and sheets as the environment."""
    rave_cli("generate", "-n", 3, "-s", 9, "--answers", "iraven", "--unique-only", "-o", tmp_path / "set")
    rave_cli("export", tmp_path / "set", "--rows-shown", "all", "--prefix", "", "-o", tmp_path / "x.jsonl")
    rave_cli("show", tmp_path / "set", "--vlm", tmp_path / "vlm")
    lines = {j["id"]: j for j in map(json.loads, open(tmp_path / "x.jsonl"))}
    text = rave.gym.create_dataset(21, seed=9)
    sheet = rave.gym.create_dataset(21, seed=9, form="sheet")
    for e, s in zip(text, sheet):
        md = e["metadata"]
        key = f"{md['configuration']}/RAVEN_{md['index']}_{md['split']}"
        assert e["question"] == lines[key]["system"] + "\n" + lines[key]["prompt"]
        assert md["target"] == lines[key]["answer"]
        assert s["images"] == [(tmp_path / "vlm" / f"{key}.png").read_bytes()]
        assert s["answer"] == str(md["target"] + 1)


CHECKED = []  # entries checked against the solver, over the tests


def check_rewards(ds):
    """Every entry against the solver on its regenerated problem; returns (rewarded, not)."""
    counts = [0, 0]
    for e in ds:
        CHECKED.append(1)
        md = e["metadata"]
        p = problem_of(e)
        s = rave.solve(p)
        assert p.target == md["target"]
        proved = s.verdict == "unique" and s.answer == p.target and shown_apart(e, p)
        assert md["rewarded"] == proved, (md, s.verdict)
        assert md["verdict"] == s.verdict
        counts[not proved] += 1
        for k in range(8):
            for style in ("bare", "reasoning", "tagged"):
                got = ds.score_answer(reply(md["text_answer"], k, style), e)
                assert got == (1.0 if proved and k == s.answer else 0.0), (md, k, style)
        assert ds.score_answer(None, e) == 0.0 and ds.score_answer("I cannot tell.", e) == 0.0
    return counts


def test_rewards_against_the_solver_marked():
    """RAVEN's answer sets, the first draw kept: some entries are not proved unique, and nothing is
    rewarded on them, not even their own answer (nor by reasoning-gym's lenient cascade)."""
    ds = rave.gym.create_dataset(7000, seed=1, answers="raven", non_unique="mark", threads=2)
    rewarded, not_rewarded = check_rewards(ds)
    assert not_rewarded > 0 and rewarded + not_rewarded == 7000
    for e in ds:
        if not e["metadata"]["rewarded"]:
            assert ds.score_answer(e["answer"], e) == 0.0 and ds.score_answer_cascade(e["answer"], e) == 0.0


def test_rewards_against_the_solver_redrawn():
    """The same entries redrawn: every one proved unique, in the text and the sheet form."""
    text = rave.gym.create_dataset(2720, seed=1, answers="raven", threads=2)
    sheet = rave.gym.create_dataset(280, seed=2, answers="raven", form="sheet", threads=2)
    for ds in (text, sheet):
        rewarded, not_rewarded = check_rewards(ds)
        assert not_rewarded == 0
    assert any(e["metadata"]["attempt"] > 0 for e in text)


def test_ten_thousand_entries_were_checked():
    assert len(CHECKED) >= 10_000


def test_every_difficulty_level():
    for level in range(len(rave.gym.LEVELS)):
        configs, grid, values, confounders = rave.gym.level_settings(level)
        ds = rave.gym.create_dataset(len(configs), seed=2, difficulty=level)
        for e in ds:
            assert e["metadata"]["grid"] == grid and e["metadata"]["values"] == values
            assert f"row {grid}: " in e["question"]
            assert ds.score_answer(e["answer"], e) == 1.0
        if values is not None:
            with pytest.raises(ValueError, match="the sheet form needs values <= 5"):
                rave.gym.create_dataset(1, seed=2, difficulty=level, form="sheet")
    with pytest.raises(ValueError, match="difficulty must be an integer in 0..7"):
        rave.gym.create_dataset(1, difficulty=8)
    with pytest.raises(ValueError, match="form must be one of"):
        reasoning_gym.create_dataset("rave_matrices", size=1, form="video")
    one = rave.gym.create_dataset(3, seed=2, difficulty=7, configs="center_single", confounders=0)
    assert [e["metadata"]["configuration"] for e in one] == ["center_single"] * 3


def test_verl_parquet_read_back(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    for form in ("text", "panels"):
        out = tmp_path / f"{form}.parquet"
        options = dict(form=form, image_size=96, answers="raven", non_unique="mark")
        if form == "text":  # in process, with rows_per_group smaller than the file
            assert rave.gym.export_verl(out, 16, 4, system_prompt="Think, then answer.", rows_per_group=5,
                                        **options) == 16
        else:  # the command line
            result = subprocess.run([sys.executable, "-m", "rave", "export-verl", out, "--size", "16", "--seed",
                                     "4", "--form", form, "--image-size", "96", "--answers", "raven",
                                     "--non-unique", "mark", "--system-prompt", "Think, then answer."],
                                    capture_output=True, text=True)
            assert result.returncode == 0, result.stderr
            assert result.stdout == f"16 entries in {out}\n"
        table = pq.read_table(out)
        names = ["data_source", "prompt"] + (["images"] if form != "text" else []) + [
            "ability", "reward_model", "extra_info"]
        assert table.column_names == names
        rows = table.to_pylist()
        entries = rave.gym.create_dataset(16, seed=4, **options)
        assert len(rows) == 16
        for i, (row, e) in enumerate(zip(rows, entries)):
            md = e["metadata"]
            images = e.get("images", [])
            assert row["data_source"] == "rave_matrices"
            assert row["prompt"] == [{"role": "system", "content": "Think, then answer."},
                                     {"role": "user", "content": "<image>" * len(images) + e["question"]}]
            if form != "text":
                assert [im["bytes"] for im in row["images"]] == images and len(images) == 16
                assert all(im["path"] is None for im in row["images"])
            assert row["ability"] == "abstract_reasoning"
            assert row["reward_model"] == {"style": "rule", "ground_truth": {
                "answer": e["answer"], "target": md["target"], "text_answer": md["text_answer"], "rewarded": md["rewarded"]}}
            assert row["extra_info"] == {
                "split": "train", "index": i, "configuration": md["configuration"], "problem": md["index"],
                "attempt": md["attempt"], "seed": 4, "answers": "raven", "form": form, "verdict": md["verdict"],
                "difficulty": 2, "grid": 3, "values": None, "confounders": 0, "rules": md["rules"]}
            truth = row["reward_model"]["ground_truth"]
            for k in range(8):
                r = reply(md["text_answer"], k, "tagged")
                want = entries.score_answer(r, e)
                assert verl_reward.compute_score(row["data_source"], r, truth, row["extra_info"]) == want
            assert verl_reward.compute_score("rave_matrices", e["answer"], truth) == (1.0 if md["rewarded"] else 0.0)
        # verl's RLHFDataset reads the file with datasets.load_dataset("parquet"): the same rows.
        datasets = pytest.importorskip("datasets")
        loaded = datasets.load_dataset("parquet", data_files=str(out), cache_dir=str(tmp_path / "cache"))["train"]
        assert loaded.to_list() == rows


def test_verl_export_refuses_bad_options(tmp_path):
    result = subprocess.run([sys.executable, "-m", "rave", "export-verl", tmp_path / "x.parquet", "--size", "3",
                             "--seed", "1", "--form", "sheet", "--difficulty", "7"], capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr.startswith("rave: error: the sheet form needs values <= 5")
    assert not os.path.exists(tmp_path / "x.parquet")
