"""rave.generate_batch, rave.load_arrays and rave.resize: the arrays a model takes."""
import io

import numpy as np
import pytest

import rave

try:
    from PIL import Image as PILImage
except ImportError:  # Pillow is how the original loader resized (scipy.misc.imresize)
    PILImage = None


def pillow_resize(panels, side):
    return np.stack([np.asarray(PILImage.fromarray(p).resize((side, side), PILImage.BILINEAR)) for p in panels])


def test_batch_equals_problem_by_problem():
    configs = [rave.CONFIGS[i % 7] for i in range(10)]
    indices = list(range(3, 13))
    b = rave.generate_batch(configs, indices, seed=11, answers="iraven")
    assert b["image"].shape == (10, 16, 160, 160) and b["image"].dtype == np.uint8
    for i, (config, k) in enumerate(zip(configs, indices)):
        p = rave.generate(config, k, seed=11, answers="iraven")
        npz = np.load(io.BytesIO(p.to_npz_bytes()))
        np.testing.assert_array_equal(b["image"][i], npz["image"])
        assert b["target"][i] == npz["target"]
        np.testing.assert_array_equal(b["meta_target"][i], npz["meta_target"])
        np.testing.assert_array_equal(b["meta_matrix"][i], npz["meta_matrix"])
        np.testing.assert_array_equal(b["meta_structure"][i], npz["meta_structure"])
        assert rave.CONFIGS[b["config"][i]] == config and b["index"][i] == k


def test_one_configuration_for_all_and_any_sequence_of_indices():
    a = rave.generate_batch("2x2", range(4), seed=3, image_size=80)
    b = rave.generate_batch(["distribute_four"] * 4, np.arange(4), seed=3, image_size=80)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key])
    assert rave.generate_batch("center", [])["image"].shape == (0, 16, 160, 160)


@pytest.mark.parametrize("side", [80, 224, 40])
def test_resized_batches_are_pillows_bilinear_of_the_panels(side):
    b = rave.generate_batch(rave.CONFIGS, range(7), seed=5, image_size=side)
    assert b["image"].shape == (7, 16, side, side)
    for i, config in enumerate(rave.CONFIGS):
        panels = rave.generate(config, i, seed=5).image
        np.testing.assert_array_equal(b["image"][i], rave.resize(panels, side))
        if PILImage is not None:
            np.testing.assert_array_equal(b["image"][i], pillow_resize(panels, side))


def test_thread_count_does_not_change_the_batch():
    configs = [rave.CONFIGS[i % 7] for i in range(21)]
    one = rave.generate_batch(configs, range(21), seed=9, answers="fair", image_size=80, threads=1)
    two = rave.generate_batch(configs, range(21), seed=9, answers="fair", image_size=80, threads=2)
    for key in one:
        np.testing.assert_array_equal(one[key], two[key])


def test_load_arrays_reads_an_npz_and_resizes_it(tmp_path):
    p = rave.generate("in_center_single_out_center_single", 2, seed=4)
    p.save(tmp_path / "RAVEN_2_train")
    full = rave.load_arrays(tmp_path / "RAVEN_2_train.npz")
    np.testing.assert_array_equal(full["image"], p.image)
    assert full["target"] == p.target and full["structure"] == p.structure
    np.testing.assert_array_equal(full["meta_matrix"], p.meta_matrix)
    small = rave.load_arrays(str(tmp_path / "RAVEN_2_train.npz"), image_size=80)
    np.testing.assert_array_equal(small["image"], rave.resize(p.image, 80))
    batch = rave.generate_batch("oic", [2], seed=4, image_size=80)
    np.testing.assert_array_equal(small["image"], batch["image"][0])


def test_resize_keeps_leading_dimensions_and_checks_squares():
    x = np.random.default_rng(0).integers(0, 256, (2, 3, 160, 160), dtype=np.uint8)
    assert rave.resize(x, 80).shape == (2, 3, 80, 80)
    np.testing.assert_array_equal(rave.resize(x, 160), x)
    with pytest.raises(ValueError):
        rave.resize(np.zeros((4, 5), np.uint8), 2)


def test_bad_batch_arguments_are_value_errors():
    with pytest.raises(ValueError, match="unknown configuration 'hex'"):
        rave.generate_batch("hex", [0])
    with pytest.raises(ValueError, match="negative"):
        rave.generate_batch("center", [0, -1])
    with pytest.raises(ValueError, match="one per index"):
        rave.generate_batch(["center", "oig"], [0, 1, 2])
    with pytest.raises(ValueError, match="answer-set strategy"):
        rave.generate_batch("center", [0], answers="I-RAVEN")
    with pytest.raises(ValueError):
        rave.generate_batch("center", [0], image_size=0)
    with pytest.raises(ValueError):
        rave.generate_batch("center", [0], threads=0)


def test_load_arrays_reads_the_original_generators_files(reference_dir):
    files = sorted(reference_dir.glob("*-reference/*/RAVEN_*.npz"))
    assert len(files) >= 100
    for f in files:
        a, npz = rave.load_arrays(f), np.load(f)
        np.testing.assert_array_equal(a["image"], npz["image"])
        assert a["target"] == int(npz["target"]) and a["structure"] == [str(t) for t in npz["structure"]]
        for key in ("meta_target", "meta_matrix", "meta_structure"):
            np.testing.assert_array_equal(a[key], npz[key])
    raven = [f for f in files if f.parts[-3] == "raven-reference"]
    for f in raven[::7]:  # re-rendered from the XML alone, the original's pixels (a sample: rendering is slow-ish)
        np.testing.assert_array_equal(rave.load(f.with_suffix(".xml")).image, np.load(f)["image"])


def test_generate_batch_fills_out_in_place():
    first = rave.generate_batch("distribute_four", range(4), seed=3, image_size=80)
    image = first["image"]
    again = rave.generate_batch("center", range(10, 14), seed=3, image_size=80, out=first)
    assert again is first and again["image"] is image
    fresh = rave.generate_batch("center", range(10, 14), seed=3, image_size=80)
    for key in fresh:
        np.testing.assert_array_equal(again[key], fresh[key])
    with pytest.raises(ValueError, match="shape"):
        rave.generate_batch("center", range(3), seed=3, image_size=80, out=first)
    with pytest.raises(ValueError, match="shape"):
        rave.generate_batch("center", range(4), seed=3, image_size=160, out=first)
    with pytest.raises(ValueError, match="no array 'target'"):
        rave.generate_batch("center", range(4), seed=3, image_size=80, out={"image": image})
