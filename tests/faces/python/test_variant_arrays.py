"""Variants and the Dynamic Residual Tree's inputs in rave.generate_batch and rave.load_arrays (no torch)."""
import io

import numpy as np
import pytest

import rave

SEED = 13


def test_a_variant_batch_equals_the_problems_one_by_one():
    configs = ["center", "oig", "2x2"]
    b = rave.generate_batch(configs, [0, 7, 9], seed=SEED, image_size=40, grid=4, confounders=2, answers="iraven")
    assert b["image"].shape == (3, 4 * 4 - 1 + 8, 40, 40)
    for i, (config, k) in enumerate(zip(configs, [0, 7, 9])):
        p = rave.generate(config, k, seed=SEED, grid=4, confounders=2, answers="iraven")
        np.testing.assert_array_equal(b["image"][i], rave.resize(p.image, 40))
        assert b["target"][i] == p.target and b["index"][i] == k
        np.testing.assert_array_equal(b["meta_matrix"][i], p.meta_matrix)
        np.testing.assert_array_equal(b["meta_target"][i], p.meta_target)
        labels, indicator = rave.drt_input(p.structure)
        np.testing.assert_array_equal(b["drt_labels"][i], labels)
        assert b["drt_indicator"][i] == indicator


def test_drt_rows_are_the_structure_tree_in_pre_order():
    b = rave.generate_batch(rave.CONFIGS, [0] * 7)
    names = [[rave.DRT_LABELS[j] if j >= 0 else "" for j in row] for row in b["drt_labels"]]
    assert names[0] == ["Scene", "Singleton", "Grid", "Center_Single", "", ""]
    assert names[6] == ["Scene", "Out_In", "Out", "Out_Center_Single", "In", "In_Distribute_Four"]
    assert b["drt_indicator"].tolist() == [0, 0, 0, 1, 1, 1, 1] and b["drt_indicator"].dtype == np.float32
    assert len(rave.DRT_LABELS) == 22
    with pytest.raises(rave.FormatError, match="structure"):
        rave.drt_input(["Scene", "Singleton", "Grid", "Nowhere", "/", "/", "/", "/"])


def test_values_beyond_the_shapes_need_images_off():
    with pytest.raises(ValueError, match="values 100 cannot be drawn.*images=False"):
        rave.generate_batch("center", [0], grid=10, values=100, confounders=3)
    b = rave.generate_batch("center", range(3), seed=SEED, grid=10, values=100, confounders=3, images=False)
    assert "image" not in b and b["meta_matrix"].shape == (3, 8, 9)
    for k in range(3):
        assert b["target"][k] == rave.generate("center", k, seed=SEED, grid=10, values=100, confounders=3).target


def test_split_draws_every_problem_as_one_of_that_split():
    # Under a regime the split changes the problem: k = 8 is a test problem (--val 2 --test 2).
    kw = dict(seed=SEED, regime="extrapolation", images=False)
    by_index = rave.generate_batch("center", [8, 0], **kw)
    as_test = rave.generate_batch("center", [8, 0], split="test", **kw)
    as_train = rave.generate_batch("center", [8, 0], split="train", **kw)
    np.testing.assert_array_equal(by_index["meta_matrix"][0], as_test["meta_matrix"][0])
    np.testing.assert_array_equal(by_index["meta_matrix"][1], as_train["meta_matrix"][1])
    assert rave.generate_batch("center", [1], split="validation", **kw)["target"].shape == (1,)
    with pytest.raises(ValueError, match="split must be train, val"):
        rave.generate_batch("center", [1], split="dev")


def test_variant_errors_name_the_option():
    with pytest.raises(ValueError, match="grid"):
        rave.generate_batch("center", [0], grid=11)
    with pytest.raises(ValueError, match="regime"):
        rave.generate_batch("center", [0], regime="sideways")
    b = rave.generate_batch("center", [0, 1], grid=4, image_size=20)
    with pytest.raises(ValueError, match=r"out\['image'\]"):
        rave.generate_batch("center", [0, 1], grid=5, image_size=20, out=b)
    assert rave.generate_batch("center", [2, 3], grid=4, image_size=20, out=b) is b


def test_load_arrays_reads_an_n_by_n_file_the_cli_wrote(rave_cli, tmp_path):
    rave_cli("generate", "-n", 2, "-o", tmp_path, "--seed", SEED, "--configs", "oig", "--grid", 4)
    a = rave.load_arrays(tmp_path / "in_distribute_four_out_center_single" / "RAVEN_1_train.npz", 80)
    p = rave.generate("oig", 1, seed=SEED, grid=4)
    assert a["image"].shape == (23, 80, 80)
    np.testing.assert_array_equal(a["image"], rave.resize(p.image, 80))
    assert a["target"] == p.target
    np.testing.assert_array_equal(a["meta_matrix"], p.meta_matrix)
    np.testing.assert_array_equal(a["drt_labels"], [0, 4, 9, 19, 10, 21])
    assert a["drt_indicator"] == 1.0


def test_load_arrays_of_a_symbolic_only_file_has_no_image(rave_cli, tmp_path):
    rave_cli("generate", "-n", 1, "-o", tmp_path, "--configs", "center", "--values", 100, "--symbolic-only")
    a = rave.load_arrays(tmp_path / "center_single" / "RAVEN_0_train.npz")
    assert "image" not in a and a["drt_labels"].tolist() == [0, 1, 11, 12, -1, -1]


def npz_with_image(path, image):
    npz = dict(np.load(io.BytesIO(rave.generate("center", 0).to_npz_bytes())))
    npz["image"] = image
    np.savez(path, **npz)
    return path


def test_format_error_names_the_real_mismatch(tmp_path):
    shape = npz_with_image(tmp_path / "shape.npz", np.zeros((15, 160, 160), np.uint8))
    with pytest.raises(rave.FormatError) as e:
        rave.load_arrays(shape)
    assert str(e.value) == (f"{shape}:image.npy: expected uint8 (16, 160, 160), or (N*N+7, S, S) "
                            "with N in 3..10 and S in 32..1024, found shape (15, 160, 160)")
    dtype = npz_with_image(tmp_path / "dtype.npz", np.zeros((16, 160, 160), np.float32))
    with pytest.raises(rave.FormatError, match=r"found dtype '<f4' of shape \(16, 160, 160\)$"):
        rave.load_arrays(dtype)
