"""bench/engine/rule_sampling_cost.py matches rave-bench cases across builds: BM_Generate_Grid took a
third argument (the answer strategy), and a build from before it generated with iraven."""
import importlib.util
import os
import pathlib

import pytest

SOURCE = pathlib.Path(os.environ.get("RAVE_SOURCE_DIR", pathlib.Path(__file__).parents[3]))


@pytest.fixture(scope="module")
def cost():
    path = SOURCE / "bench" / "engine" / "rule_sampling_cost.py"
    spec = importlib.util.spec_from_file_location("rule_sampling_cost", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generate_grid_reads_the_strategy(cost):
    assert cost.case_of("BM_Generate_Grid/6/10/3") == ("BM_Generate_Grid", "O-IG", 10, "balanced")
    assert cost.case_of("BM_Generate_Grid/0/3/0") == ("BM_Generate_Grid", "Center", 3, "raven")


def test_two_argument_build_matches_iraven(cost):
    assert cost.case_of("BM_Generate_Grid/5/5") == cost.case_of("BM_Generate_Grid/5/5/1")
    assert cost.case_of("BM_Generate_Grid/5/5") != cost.case_of("BM_Generate_Grid/5/5/3")


def test_rules_and_suffixes(cost):
    assert cost.case_of("BM_Rules_Grid/2/10") == ("BM_Rules_Grid", "3x3Grid", 10, None)
    assert cost.case_of("BM_Rules_Grid/2/10/repeats:3") == cost.case_of("BM_Rules_Grid/2/10")
    with pytest.raises(ValueError):
        cost.case_of("BM_Generate_Grid/1")
