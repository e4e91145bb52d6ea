"""Render styles in Python (docs/rendering.md#styles): rave.generate and rave.generate_batch draw a
style's panels, the files carry it, and a style refuses levels it cannot tell apart."""
import numpy as np
import pytest

import rave


def test_generate_draws_the_styles_panels_and_saves_them(tmp_path):
    p = rave.generate("oig", 3, seed=5, style="clean:size=448", values=7, confounders=2)
    assert p.image.shape == (16, 448, 448)
    assert len(np.unique(p.image)) > 20  # anti-aliased edges
    p.save(tmp_path / "p")
    again = rave.load(tmp_path / "p.xml")
    np.testing.assert_array_equal(again.image, p.image)  # the XML names the style: same pixels
    a = rave.load_arrays(tmp_path / "p.npz", image_size=96)
    assert a["image"].shape == (16, 96, 96)


def test_the_original_style_is_unchanged():
    np.testing.assert_array_equal(rave.generate("2x2", 4, style="original").image,
                                  rave.generate("2x2", 4).image)


def test_a_batch_draws_the_style_at_the_models_size():
    b = rave.generate_batch(["center", "3x3"], [0, 1], seed=9, image_size=128, style="dark", grid=4)
    assert b["image"].shape == (2, 23, 128, 128)
    one = rave.generate("3x3", 1, seed=9, style="dark:size=128", grid=4)
    np.testing.assert_array_equal(b["image"][1], one.image)


def test_a_style_refuses_what_it_cannot_tell_apart():
    with pytest.raises(ValueError, match="cannot draw 1000 levels"):
        rave.generate_batch("center", [0], style="clean", values=1000)
    assert "image" not in rave.generate_batch("center", [0], style="clean", values=1000, images=False)
    with pytest.raises(ValueError, match="unknown style"):
        rave.generate("center", 0, style="glossy")
