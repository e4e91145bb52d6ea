"""rave.solve and rave.check against the solver's CLI (`rave solve --json`, `rave check`)."""
import json
import math

import pytest

import rave


@pytest.fixture(scope="module")
def folder(rave_cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("solve")
    rave_cli("generate", "-n", 3, "-o", out, "--seed", 31, "--answers", "iraven", "-j", 2)
    return out


def test_solves_generated_problems_in_memory():
    for config in rave.CONFIGS:
        for k in range(5):
            p = rave.generate(config, k, seed=77)
            s = rave.solve(p)
            assert s.answer == p.target and s.correct is True
            assert s.verdict in ("unique", "ambiguous")
            assert s.answer in s.consistent and len(s.scores) == 8
            assert s.rules and all(line.split(":")[0] in {c["component"] for c in p.context[0]} for line in s.rules)
            assert all(math.isinf(s.scores[i]) for i in range(8) if i not in s.consistent)
            assert [c["candidate"] for c in s.competitors] == [i for i in s.consistent if i != s.answer]


def test_rule_names_given_prove_every_answer_unique():
    for config in rave.CONFIGS:
        p = rave.generate(config, 1, seed=3)
        s = rave.solve(p, use_rules=True)
        assert s.verdict == "unique" and s.answer == p.target


def test_z3_agrees_with_the_heuristic():
    for config in rave.CONFIGS:
        p = rave.generate(config, 2, seed=5)
        h, z = rave.solve(p), rave.solve(p, backend="z3")
        assert (h.answer, h.verdict, h.consistent) == (z.answer, z.verdict, z.consistent)


def test_a_file_and_a_folder_as_the_cli_solves_them(rave_cli, folder):
    lines = [json.loads(line) for line in rave_cli("solve", folder, "--json", "-j", 1).stdout.splitlines()]
    solutions = rave.solve(folder, threads=2)
    assert [s.file for s in solutions] == [line["file"] for line in lines]
    for s, line in zip(solutions, lines):
        assert (s.answer, s.verdict, s.consistent, s.config) == (line["answer"], line["verdict"], line["consistent"],
                                                                 line["configuration"])
        assert s.target == line["target"]
    one = rave.solve(lines[0]["file"])
    assert one.answer == lines[0]["answer"] and one.file == lines[0]["file"]


def test_check_returns_the_audit_as_data(rave_cli, folder):
    results = rave.check(folder, threads=2)
    assert len(results) == 21
    assert {r["config"] for r in results} == set(rave.CONFIGS)
    assert not any(r["failed"] for r in results)
    assert all(r["target_known"] and r["target_explained"] and r["answered"] for r in results)
    summary = rave_cli("check", folder, "-j", 1).stdout
    failed_row = next(line for line in summary.splitlines() if line.startswith("failed"))
    assert failed_row.split()[1] == "0"
    blind = sum(r["blind_hit"] for r in results)
    assert blind <= 10  # I-RAVEN answer sets: the context-blind pick is at chance, not ~98%


def test_check_compares_every_problem_s_pixels_with_its_xml(folder, tmp_path):
    import shutil

    import numpy as np
    copy = tmp_path / "set"
    shutil.copytree(folder, copy)
    npz = sorted((copy / "center_single").glob("*.npz"))[-1]
    arrays = dict(np.load(npz))
    arrays["image"][3, 80, 80] ^= 0xFF
    np.savez(npz, **arrays)
    results = {r["file"]: r for r in rave.check(copy, threads=2)}
    edited = results[str(npz.with_suffix(".xml"))]
    assert edited["failed"] and edited["defects"], edited
    assert not any(r["failed"] or r["defects"] for f, r in results.items() if f != edited["file"])


def test_bad_backend_is_a_value_error():
    with pytest.raises(ValueError, match="heuristic or z3"):
        rave.solve(rave.generate("center", 0), backend="minisat")
