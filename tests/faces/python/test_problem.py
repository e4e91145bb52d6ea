"""rave.generate, rave.Problem and rave.load against the files `rave generate` writes."""
import io
import pathlib

import numpy as np
import pytest

import rave

SEED = 7
PER_CONFIG = 2


@pytest.fixture(scope="module", params=rave.STRATEGIES)
def cli_dataset(request, rave_cli, tmp_path_factory):
    """(strategy, folder) of PER_CONFIG problems per configuration written by `rave generate`."""
    out = tmp_path_factory.mktemp(f"cli-{request.param}")
    rave_cli("generate", "-n", PER_CONFIG, "-o", out, "--seed", SEED, "--answers", request.param, "-j", 2)
    return request.param, out


def test_configs_are_the_seven_folders_in_paper_order():
    assert rave.CONFIGS == ("center_single", "distribute_four", "distribute_nine",
                            "left_center_single_right_center_single", "up_center_single_down_center_single",
                            "in_center_single_out_center_single", "in_distribute_four_out_center_single")
    assert rave.PAPER_NAMES == ("Center", "2x2Grid", "3x3Grid", "L-R", "U-D", "O-IC", "O-IG")
    assert rave.ALIASES["O-IG"] == rave.ALIASES["oig"] == rave.CONFIGS[6]
    assert all(rave.ALIASES[c] == c for c in rave.CONFIGS)
    assert rave.config_name("3x3") == "distribute_nine"


def test_npz_and_xml_equal_the_cli_files_for_every_configuration(cli_dataset):
    strategy, folder = cli_dataset
    for config in rave.CONFIGS:
        for k in range(PER_CONFIG):
            stem = folder / config / f"RAVEN_{k}_train"
            p = rave.generate(config, k, seed=SEED, answers=strategy)
            assert p.to_npz_bytes() == stem.with_suffix(".npz").read_bytes(), (config, k, strategy)
            assert p.to_xml().encode() == stem.with_suffix(".xml").read_bytes(), (config, k, strategy)


def test_aliases_give_the_same_problem():
    a = rave.generate("in_distribute_four_out_center_single", 3, seed=5)
    b = rave.generate("O-IG", 3, seed=5)
    assert a.to_xml() == b.to_xml()
    assert rave.generate("oig", 3, seed=6).to_xml() != a.to_xml()


def test_fields_are_the_npz_fields():
    for config in rave.CONFIGS:
        p = rave.generate(config, 11, answers="iraven")
        npz = np.load(io.BytesIO(p.to_npz_bytes()))
        assert p.image.shape == (16, rave.PANEL_SIZE, rave.PANEL_SIZE) and p.image.dtype == np.uint8
        np.testing.assert_array_equal(p.image, npz["image"])
        assert p.target == int(npz["target"]) and p.predict == int(npz["predict"])
        np.testing.assert_array_equal(p.meta_target, npz["meta_target"])
        np.testing.assert_array_equal(p.meta_matrix, npz["meta_matrix"])
        np.testing.assert_array_equal(p.meta_structure, npz["meta_structure"])
        assert p.structure == [str(t) for t in npz["structure"]]
        assert p.config == config


def test_image_is_rendered_once_read_only_and_not_copied():
    p = rave.generate("distribute_nine", 2)
    first = p.image
    assert first is p.image
    assert not first.flags.writeable
    with pytest.raises(ValueError):
        first[0, 0, 0] = 1
    assert np.shares_memory(first, p.image)
    view = p.image
    del p
    assert view.sum() > 0  # the array keeps its pixels alive without the problem


def test_symbols_as_plain_data():
    p = rave.generate("in_distribute_four_out_center_single", 4)
    assert len(p.context) == 8 and len(p.candidates) == 8
    panel = p.context[0]
    assert [c["component"] for c in panel] == ["Out", "In"]
    entity = panel[1]["entities"][0]
    assert set(entity) == {"slot", "type", "size", "color", "angle"}
    assert all(isinstance(v, int) for v in entity.values())
    assert len(p.rules) == 8 and p.rules[0].startswith("Out: Number/Position ")
    answer = p.candidates[p.target]
    assert sum(c == answer for c in p.candidates) == 1


def test_save_writes_the_cli_pair_and_load_reads_it_back(cli_dataset, tmp_path):
    strategy, folder = cli_dataset
    p = rave.generate("up_center_single_down_center_single", 1, seed=SEED, answers=strategy)
    p.save(tmp_path / "RAVEN_1_train")
    for suffix in (".npz", ".xml"):
        cli_file = folder / "up_center_single_down_center_single" / f"RAVEN_1_train{suffix}"
        assert (tmp_path / f"RAVEN_1_train{suffix}").read_bytes() == cli_file.read_bytes()
    for path in (tmp_path / "RAVEN_1_train.xml", str(tmp_path / "RAVEN_1_train.npz")):
        q = rave.load(path)
        assert q.to_xml() == p.to_xml() and q.target == p.target
        assert q.to_npz_bytes() == p.to_npz_bytes()


def test_asig_round_trip(tmp_path):
    p = rave.generate("left_center_single_right_center_single", 9, answers="fair")
    path = tmp_path / "p.asig"
    path.write_text(p.to_asig())
    q = rave.load(path)
    assert q.to_asig() == p.to_asig() and q.target == p.target and q.context == p.context


def test_pickles_through_its_asig_text():
    import pickle
    for answers in rave.STRATEGIES:
        p = rave.generate("distribute_four", 3, answers=answers)
        q = pickle.loads(pickle.dumps(p))
        assert q.to_npz_bytes() == p.to_npz_bytes() and q.to_xml() == p.to_xml()


def test_compressed_npz_holds_the_same_arrays():
    p = rave.generate("center_single", 0)
    small, plain = p.to_npz_bytes(compress=True), p.to_npz_bytes()
    assert len(small) < len(plain) / 4
    a, b = np.load(io.BytesIO(small)), np.load(io.BytesIO(plain))
    for key in b.files:
        np.testing.assert_array_equal(a[key], b[key])


def test_same_seed_same_problem_other_seed_other_problem():
    assert rave.generate("center_single", 5, seed=1).to_xml() == rave.generate("center_single", 5, seed=1).to_xml()
    assert rave.generate("center_single", 5, seed=1).to_xml() != rave.generate("center_single", 5, seed=2).to_xml()


def test_the_repository_golden_files(source_dir):
    """data/<strategy>/<config>/RAVEN_0_train: `rave generate -n 1 --compress --seed 2019` (data/README.md)."""
    data = pathlib.Path(source_dir, "data")
    if not data.is_dir():
        pytest.skip("no data/ folder")
    for strategy in rave.STRATEGIES:
        for config in rave.CONFIGS:
            stem = data / strategy / config / "RAVEN_0_train"
            p = rave.generate(config, 0, seed=2019, answers=strategy)
            assert p.to_npz_bytes(compress=True) == stem.with_suffix(".npz").read_bytes(), (strategy, config)
            assert p.to_xml().encode() == stem.with_suffix(".xml").read_bytes(), (strategy, config)
            q = rave.load(stem.with_suffix(".xml"))
            assert q.target == p.target and q.context == p.context and q.candidates == p.candidates
