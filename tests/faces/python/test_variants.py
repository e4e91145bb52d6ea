"""Variants (docs/variants.md) and the dataset manifest from Python, against what the CLI writes."""
import zlib

import pytest

import rave

SEED = 11


def test_generate_with_a_variant_equals_the_cli_files(rave_cli, tmp_path):
    out = tmp_path / "grid"
    rave_cli("generate", "-n", 2, "-o", out, "--seed", SEED, "--configs", "center_single,distribute_four",
             "--grid", 5, "--confounders", 2, "--answers", "iraven")
    for config in ("center_single", "distribute_four"):
        for k in range(2):
            p = rave.generate(config, k, seed=SEED, answers="iraven", grid=5, confounders=2)
            stem = out / config / f"RAVEN_{k}_train"
            assert p.to_npz_bytes() == stem.with_suffix(".npz").read_bytes()
            assert p.to_xml().encode() == stem.with_suffix(".xml").read_bytes()
            assert p.image.shape == (5 * 5 - 1 + 8, 160, 160)
            assert len(p.context) == 24


def test_a_large_grid_is_solved_without_its_rules():
    correct = 0
    for config in rave.CONFIGS:
        p = rave.generate(config, 3, seed=SEED, answers="raven", grid=6, values=100)
        s = rave.solve(p)
        assert s.verdict in ("unique", "ambiguous") and p.target in s.consistent, config
        correct += s.answer == p.target
    assert correct >= 6


def test_variant_errors_are_value_errors():
    with pytest.raises(ValueError, match="grid"):
        rave.generate("center_single", 0, grid=11)
    with pytest.raises(ValueError, match="regime"):
        rave.generate("center_single", 0, regime="sideways")
    with pytest.raises(ValueError, match="cannot be drawn|--values"):
        rave.generate("center_single", 0, values=100).image


def test_manifest_lists_every_file_with_its_crc(rave_cli, tmp_path):
    out = tmp_path / "data"
    rave_cli("generate", "-n", 3, "-o", out, "--configs", "center_single", "--grid", 4)
    m = rave.manifest(out)
    assert m["complete"] and m["variant"]["grid"] == 4 and m["counts"]["problems"] == 3
    assert "--grid" in m["command"]
    for f in m["files"]:
        data = (out / f["path"]).read_bytes()
        assert len(data) == f["size"] and "%08x" % zlib.crc32(data) == f["crc32"]
    with pytest.raises(FileNotFoundError):
        rave.manifest(tmp_path / "nowhere")
    (tmp_path / "bad.json").write_text("{}")
    with pytest.raises(rave.FormatError):
        rave.manifest(tmp_path / "bad.json")


def test_a_variant_problem_pickles_whole():
    import pickle
    p = rave.generate("distribute_four", 2, seed=SEED, answers="iraven", grid=4, confounders=1)
    q = pickle.loads(pickle.dumps(p))
    assert q.to_xml() == p.to_xml() and q.target == p.target
    assert q.to_npz_bytes() == p.to_npz_bytes()
    with pytest.raises(ValueError, match="asig"):
        p.to_asig()
