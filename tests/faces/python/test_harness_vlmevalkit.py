"""`rave export --harness vlmevalkit`: the two TSVs checked column by column against VLMEvalKit's documented
custom multiple-choice layout (docs/en/Development.md: index, image as base64, question, A..H, answer as a
letter, category) and read as VLMEvalKit reads them (pandas.read_csv with sep="\\t"; a multi-image `image`
a Python list literal, its `toliststr`): the sheet is the PNG `rave show --vlm` draws, the 16 panels are
the npz panels in the shown (shuffled) order, the answer letter names the npz answer. VLMEvalKit is not
on PyPI, so its prediction file is written here as its inference writes it (the TSV's columns less
`image`, plus `prediction`, as .xlsx), and `rave harness-answers` + `rave score` read it: right letters
100 %, wrong ones 0 %."""
import ast
import base64
import io
import json

import numpy as np
import pytest
from PIL import Image

import harness_support as hs
import rave

pd = pytest.importorskip("pandas")
pytest.importorskip("openpyxl")
CONFIGS = 7
LETTERS = "ABCDEFGH"


@pytest.fixture(scope="module")
def folder(rave_cli, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("vlmevalkit")
    data = hs.make_set(rave_cli, tmp / "set")
    rave_cli("show", data, "--vlm", tmp / "sheets", "--panels", "--answers-shuffled", hs.SEED)  # the same images
    return data, hs.export(rave_cli, data, tmp / "tsv", "vlmevalkit"), tmp / "sheets"


def decode(b64):
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(b64, validate=True))))


def test_the_columns_are_vlmevalkits_custom_mcq_layout(folder):
    data, tsv, sheets = folder
    lines = {json.loads(t)["id"]: json.loads(t) for t in (sheets / "vlm.jsonl").read_text().splitlines()}
    for form in ("sheet", "panels"):
        table = pd.read_csv(tsv / f"RAVE_{form}.tsv", sep="\t")
        assert list(table.columns[:13]) == ["index", "image", "question", *LETTERS, "answer", "category"]
        assert list(table["index"]) == list(range(3 * CONFIGS)) and table["index"].dtype.kind == "i"
        for _, row in table.iterrows():
            npz = rave.load_arrays(data / f"{row['id']}.npz")
            assert row["category"] == row["id"].split("/")[0] and row["category"] in rave.CONFIGS
            assert [row[x] for x in LETTERS] == [f"candidate {k}" for k in range(1, 9)]
            assert row["answer"] in LETTERS and row["answers_shuffled"] == hs.SEED
            prompt = lines[row["id"]][f"{form}_prompt"]  # rave's prompt less the sentence asking for 1-8
            assert prompt == row["question"] + " Answer with the number of the candidate (1-8) only."
            if form == "sheet":
                sheet = np.asarray(Image.open(sheets / lines[row["id"]]["sheet"]))
                assert np.array_equal(decode(row["image"]), sheet)
                continue
            images = [decode(b) for b in ast.literal_eval(row["image"])]  # VLMEvalKit's toliststr
            assert len(images) == 16 and np.array_equal(np.stack(images[:8]), npz["image"][:8])
            shown = [next(j for j in range(8) if np.array_equal(g, npz["image"][8 + j])) for g in images[8:]]
            assert sorted(shown) == list(range(8))
            assert shown[LETTERS.index(row["answer"])] == int(npz["target"])


@pytest.mark.parametrize("case,reply,expected", [
    ("right", lambda a: a, 100.0),
    ("reasoned", lambda a: f"The pattern continues, so the answer is ({a}).", 100.0),
    ("wrong", lambda a: LETTERS[(LETTERS.index(a) + 1) % 8], 0.0),
])
def test_a_vlmevalkit_prediction_file_scores_as_its_letters_say(folder, tmp_path, case, reply, expected):
    data, tsv, _ = folder
    env = hs.environment(tmp_path)
    for form in ("sheet", "panels"):
        table = pd.read_csv(tsv / f"RAVE_{form}.tsv", sep="\t").drop(columns=["image"])
        table["prediction"] = [reply(a) for a in table["answer"]]
        predictions = tmp_path / f"{case}_RAVE_{form}.xlsx"
        table.to_excel(predictions, index=False)
        score, answers = hs.rave_score(env, [predictions], data, tmp_path / f"{form}.jsonl",
                                       "--text-answer", "letter")
        assert len(answers) == 3 * CONFIGS and all(a["answers_shuffled"] == hs.SEED for a in answers)
        assert score["accuracy"] == expected and score["unreadable"] == 0
        assert set(hs.per_configuration(score).values()) == {expected}
