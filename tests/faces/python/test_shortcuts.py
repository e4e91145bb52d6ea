"""The learner audit (rave.shortcuts, `rave check --shortcuts`, docs/answer-sets.md#the-learner-audit) on small
sets: it finds the context-blind shortcut RAVEN-FAIR's own generator leaves (the answer at the root of its tree,
distractors that break uniformity), and finds none in the exchangeable sets of `--answers balanced` and of
RAVEN-FAIR's variants, whose learner stays near chance where the variants' earlier draws gave 50-65% on the
grid configurations (issue 44; 51.9% measured with the draws before, main's build). 47 s on the
shared 2-core machine at load average about 14 (the logit on one BLAS thread)."""
import math

import numpy as np
import pytest

import rave
from rave import shortcuts

GRIDS = "distribute_four,distribute_nine"


@pytest.fixture(scope="module")
def sets(rave_cli, tmp_path_factory):
    root = tmp_path_factory.mktemp("shortcuts")
    made = {}
    # balanced: 200 per configuration (80 left a learner at chance a 3-sigma fluke away from the bound: on
    # seed 7 the own-rules-first build read 21.3% on 160 problems and 8.1-14.4% on six other seeds)
    for name, options in {"fair": ["-n", 80, "-a", "fair"], "balanced": ["-n", 200, "-a", "balanced"],
                          "fair-variant": ["-n", 80, "-a", "fair", "--grid", "4", "--values", "100"]}.items():
        rave_cli("generate", "-c", GRIDS, "-o", root / name, "--seed", 7, "-j", 2, "--symbolic-only", *options)
        made[name] = root / name
    return made


def blind(folder):
    result = shortcuts.audit([folder], threads=2, learners=("logit",), folds=4)
    return result["all"]["blind"]["logit"]


def test_the_features_have_one_row_per_candidate_and_a_name_per_column(sets):
    data = shortcuts.features(sets["balanced"], threads=2)
    n = len(data["files"])
    assert n == 400 and all(e == "" for e in data["errors"])
    assert data["blind"].shape == (n, 8, len(data["blind_names"]))
    assert data["bag"].shape == (n, 8, len(data["bag_names"]))
    assert set(data["target"]) <= set(range(8)) and set(data["grid"]) == {3}
    assert "c0.type.same_tup" in data["blind_names"] and "c0.type.ctx_mean" in data["bag_names"]
    assert np.isfinite(data["blind"]).all() and np.isfinite(data["bag"]).all()


def test_the_learner_finds_raven_fair_originals_shortcut(sets):
    found = blind(sets["fair"])
    assert found["accuracy"] > 0.3, found  # measured on 1,000 per configuration: 54-75% on these two


def test_balanced_sets_leave_the_learner_at_chance(sets):
    for name in ("balanced", "fair-variant"):
        found = blind(sets[name])
        assert found["interval"][0] <= 0.125 and found["accuracy"] < 0.2, (name, found)


def test_wilson_interval():
    low, high = shortcuts.wilson(125, 1000)
    assert math.isclose(low, 0.1058, abs_tol=1e-3) and math.isclose(high, 0.1472, abs_tol=1e-3)


def test_check_with_shortcuts_in_python_and_on_the_command_line(sets, rave_cli):
    files = rave.check(sets["fair"], threads=2, shortcuts=True, folds=2, learners=("logit",))
    assert len(files) == 160
    assert {"blind.logit", "bag.logit"} == set(files[0]["shortcuts"])
    assert all(0 <= v <= 1 for f in files for v in f["shortcuts"].values())
    out = rave_cli("check", sets["fair"], "--shortcuts", "--folds", "2", "-j", "2").stdout
    assert "shortcut learners: cross-validated by problem (2 folds)" in out
    rows = [line.split() for line in out.splitlines() if line.startswith(("2x2Grid", "3x3Grid", "all "))]
    assert [r[0] for r in rows] == ["2x2Grid", "3x3Grid", "all"]  # the learners' rows
    assert all(r[2] == "100.0" for r in rows)  # the solver answers every problem
    learnt = rave_cli("check", sets["fair-variant"], "--shortcuts", "--shortcut-learners", "logit",
                      "--shortcuts-train", sets["fair"], "-j", "2").stdout
    assert "learnt from" in learnt
    assert rave_cli("check", sets["fair"], "--shortcuts-train", sets["balanced"], check=False).returncode == 2
