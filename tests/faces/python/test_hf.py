"""rave.to_hf / rave.export_hf / `python -m rave export-hf`: HuggingFaceM4/RAVEN's schema, read back offline
with datasets.load_dataset and compared field by field with the npz and XML files."""
import glob
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import rave

os.environ["HF_DATASETS_OFFLINE"] = "1"  # read when datasets is imported: nothing may come from the network
pytest.importorskip("pyarrow")
datasets = pytest.importorskip("datasets")

HUB_SPLITS = {"train": "train", "validation": "val", "test": "test"}


@pytest.fixture(scope="module")
def dataset(rave_cli, tmp_path_factory):
    """All 7 configurations, 6 problems each: k = 0 train, 1..4 val, 5 test (--val 4 --test 5)."""
    out = tmp_path_factory.mktemp("seven")
    rave_cli("generate", "-n", 6, "--val", 4, "--test", 5, "-o", out, "--seed", 17, "--answers", "iraven", "-j", 2)
    return out


@pytest.fixture(scope="module")
def exported(dataset, tmp_path_factory):
    out = tmp_path_factory.mktemp("hub")
    env = dict(os.environ, HF_DATASETS_OFFLINE="1")
    result = subprocess.run([sys.executable, "-m", "rave", "export-hf", dataset, "-o", out, "--shard-rows", "3"],
                            capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("42 problems of 7 configurations")
    return out


def assert_row_is_the_files(row, dataset, config, split, manifest):
    stem = dataset / config / f"RAVEN_{row['id']}_{HUB_SPLITS[split]}"
    with np.load(stem.with_suffix(".npz")) as npz:
        f = {key: npz[key] for key in npz.files}
    images = [np.asarray(im) for im in row["panels"] + row["choices"]]
    assert len(row["panels"]) == 8 and len(row["choices"]) == 8
    assert all(im.dtype == np.uint8 for im in images)
    np.testing.assert_array_equal(np.stack(images), f["image"])  # PNG is lossless: byte for byte
    assert row["target"] == f["target"] and row["predict"] == f["predict"]
    np.testing.assert_array_equal(np.asarray(row["meta_matrix"]), f["meta_matrix"])
    np.testing.assert_array_equal(np.asarray(row["meta_target"]), f["meta_target"][None])
    np.testing.assert_array_equal(np.asarray(row["meta_structure"]), f["meta_structure"][None])
    assert row["structure"] == [list(f["structure"])]
    assert row["metadata"] == stem.with_suffix(".xml").read_text()
    assert row["config"] == config and row["answers"] == "iraven" and row["seed"] == 17
    assert json.loads(row["variant"]) == manifest["variant"] and row["rave_version"] == rave.__version__
    assert row["command"] == " ".join(manifest["command"])


def test_the_parquet_shards_load_offline_and_equal_the_files(dataset, exported, tmp_path):
    assert datasets.config.HF_DATASETS_OFFLINE
    manifest = rave.manifest(dataset)
    seen = 0
    for config in rave.CONFIGS:
        files = {s: sorted(glob.glob(str(exported / config / f"{s}-*.parquet"))) for s in HUB_SPLITS}
        assert [len(files[s]) for s in HUB_SPLITS] == [1, 2, 1]  # 1, 4 and 1 problems in shards of 3
        d = datasets.load_dataset("parquet", data_files=files, cache_dir=str(tmp_path))
        assert set(d) == set(HUB_SPLITS)
        assert d["train"].features["panels"] == datasets.List(datasets.Image())
        assert d["train"].features["structure"] == datasets.Array2D((1, len(rave.generate(config, 0).structure)),
                                                                    "string")
        assert d["train"].features["meta_matrix"] == datasets.Array2D((8, 9), "uint8")
        assert d["train"].features["id"] == datasets.Value("int32")
        for split in HUB_SPLITS:
            assert [r["id"] for r in d[split]] == {"train": [0], "validation": [1, 2, 3, 4], "test": [5]}[split]
            for row in d[split]:
                assert_row_is_the_files(row, dataset, config, split, manifest)
                seen += 1
    assert seen == 42


def test_the_card_names_every_config_and_split(exported, tmp_path):
    import yaml
    text = (exported / "README.md").read_text()
    header = yaml.safe_load(text.split("---\n")[1])
    assert [c["config_name"] for c in header["configs"]] == list(rave.CONFIGS)
    assert header["configs"][6]["data_files"][1] == {
        "split": "validation", "path": "in_distribute_four_out_center_single/validation-*.parquet"}
    info = {i["config_name"]: i for i in header["dataset_info"]}
    assert [s["num_examples"] for s in info["center_single"]["splits"]] == [1, 4, 1]
    assert {"name": "panels", "list": "image"} in info["center_single"]["features"]
    d = datasets.load_dataset(str(exported), "distribute_nine", cache_dir=str(tmp_path))  # the card's configs, as the hub reads them
    assert {s: len(d[s]) for s in d} == {"train": 1, "validation": 4, "test": 1}


def test_to_hf_is_the_exported_dataset(dataset, exported, tmp_path):
    mine = rave.to_hf(dataset, config="oig")
    assert list(mine) == list(HUB_SPLITS)
    files = {s: sorted(glob.glob(str(exported / "in_distribute_four_out_center_single" / f"{s}-*.parquet")))
             for s in HUB_SPLITS}
    theirs = datasets.load_dataset("parquet", data_files=files, cache_dir=str(tmp_path))
    for split in HUB_SPLITS:
        assert mine[split].features == theirs[split].features
        assert mine[split].to_dict() == theirs[split].to_dict()
    every = rave.to_hf(dataset)  # all configurations in one table: structure as a nested list
    assert len(every["validation"]) == 28 and every["test"]["config"] == list(rave.CONFIGS)
    assert every["test"][6]["structure"] == [list(rave.generate("oig", 0).structure)]


def test_n_by_n_problems_keep_their_context_panels(rave_cli, tmp_path):
    rave_cli("generate", "-n", 1, "-o", tmp_path / "d", "--configs", "lr", "--grid", 4)
    row = rave.to_hf(tmp_path / "d")["train"][0]
    assert len(row["panels"]) == 15 and len(row["choices"]) == 8
    np.testing.assert_array_equal(np.stack([np.asarray(i) for i in row["panels"]]),
                                  rave.generate("lr", 0, grid=4).image[:15])


def test_errors_are_one_line_and_name_the_file(rave_cli, tmp_path):
    with pytest.raises(FileNotFoundError, match="no such dataset folder"):
        rave.export_hf(tmp_path / "missing", tmp_path / "out")
    rave_cli("generate", "-n", 1, "-o", tmp_path / "sym", "--configs", "center", "--values", 100, "--symbolic-only")
    with pytest.raises(rave.FormatError, match=r"RAVEN_0_train\.npz:image\.npy: a symbolic-only problem"):
        rave.export_hf(tmp_path / "sym", tmp_path / "out")
    assert not (tmp_path / "out" / "README.md").exists()
    result = subprocess.run([sys.executable, "-m", "rave", "export-hf", tmp_path / "sym", "-o", tmp_path / "out"],
                            capture_output=True, text=True)
    assert result.returncode == 1 and result.stderr.startswith("rave: error: ") and result.stderr.count("\n") == 1
    assert subprocess.run([sys.executable, "-m", "rave", "export-hf", "--bogus"], capture_output=True).returncode == 2
