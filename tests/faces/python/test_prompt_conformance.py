"""`rave export`'s prompt styles against the sources' own code (docs/evaluation.md#prompt-styles).

tests/fixtures/prompts/expected.json holds, for every case of cases.json and every configuration,
one hash per problem of the prompts that IBM's code (5b3c5e4, 2ada9bb; its Solver_disc and, for
`--classmode pred`, Solver_pred) and lm-raven's (500e6f7)
write for rave's problems (scripts/prompt_reference.py fixture ran their code; none of it is in the
repository). Here rave re-creates the same sets from their seeds and must write the same prompts,
character for character: 200 problems per configuration and case, 3x3 I-RAVEN and 10x10 with
confounders and uncertain values, and IBM's own I-RAVEN-X file."""
import importlib.util
import json

import pytest


@pytest.fixture(scope="module")
def reference(source_dir):
    spec = importlib.util.spec_from_file_location("prompt_reference",
                                                  source_dir / "scripts" / "prompt_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def cases(source_dir):
    root = source_dir / "tests" / "fixtures" / "prompts"
    return json.loads((root / "cases.json").read_text()), json.loads((root / "expected.json").read_text())


@pytest.fixture(scope="module")
def sets(reference, cases, source_dir, tmp_path_factory):
    import os
    doc, _ = cases
    return reference.make_sets(doc, os.environ["RAVE_CLI"], str(source_dir),
                               str(tmp_path_factory.mktemp("sets")))


def test_every_case_writes_what_the_sources_code_writes(reference, cases, sets, rave_cli, tmp_path):
    import os
    doc, expected = cases
    checked = 0
    for n, case in enumerate(doc["cases"]):
        name = reference.case_name(case)
        configs = reference.case_configs(doc, case, sets[case["set"]])
        assert sorted(configs) == sorted(expected["cases"][name]), name
        for config in configs:
            out = reference.rave_export(os.environ["RAVE_CLI"], case,
                                        reference.export_input(sets[case["set"]], config),
                                        str(tmp_path / f"{n}-{config}.jsonl"))
            ours = [reference.line_hash(json.loads(line)) for line in open(out)]
            theirs = expected["cases"][name][config]
            assert len(ours) == len(theirs), f"{name} / {config}"
            first = next((i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b), None)
            assert first is None, f"{name} / {config}: line {first + 1} differs from their code's"
            checked += len(ours)
    assert checked >= 200 * 80


def test_the_hash_covers_every_prompt_field(reference):
    line = {"id": "a", "style": "ibm-2025", "system": "s", "prompt": "p", "context": "c",
            "choices": ["x"]}
    base = reference.line_hash(line)
    for field, value in [("system", "t"), ("prompt", "q"), ("context", "d"), ("choices", ["y"])]:
        assert reference.line_hash({**line, field: value}) != base, field
    assert reference.line_hash({**line, "id": "b"}) == base  # ids are compared by position
