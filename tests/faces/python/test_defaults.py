"""Every face's defaults are the core's (jobs::DatasetSpec, through rave._rave.defaults()): `rave
generate`'s flags, rave.generate, rave.generate_batch and rave.torch.RavenStream; and export's,
score's, solve's and check's (the libraries' options structs, through rave._rave.option_defaults()):
those commands' flags, rave.solve, rave.check and rave.harness. A face that restates a default and
drifts fails here."""
import ast
import inspect
import json

import pytest

import rave
from rave import _rave

CORE = _rave.defaults()
OPTIONS = _rave.option_defaults()


def binding_defaults(function):
    """The keyword defaults of a pybind11 function, from the signature line of its docstring."""
    line = function.__doc__.splitlines()[0]
    tree = ast.parse(f"def {line}: pass")
    args = tree.body[0].args
    named = args.args[len(args.args) - len(args.defaults):] + args.kwonlyargs
    values = args.defaults + args.kw_defaults
    return {a.arg: ast.literal_eval(v) for a, v in zip(named, values) if v is not None and
            not (isinstance(v, ast.Constant) and v.value is None)}


def test_core_defaults_are_the_original_datasets():
    # RAVEN's own split (6/2/2 tenths) and rave's published seed; what every face below must show
    assert CORE["val"] + CORE["test"] < 10
    assert set(CORE) == {"seed", "val", "test", "answers", "grid", "confounders", "regime", "style"}


@pytest.mark.parametrize("function", [rave.generate, rave.generate_batch], ids=["generate", "generate_batch"])
def test_bindings_take_the_cores_defaults(function):
    defaults = binding_defaults(function)
    for name in ("seed", "answers", "grid", "confounders", "regime", "style"):
        assert defaults[name] == CORE[name], name


def test_torch_stream_takes_the_cores_defaults():
    torch_module = pytest.importorskip("rave.torch")
    parameters = inspect.signature(torch_module.RavenStream.__init__).parameters
    for name in ("seed", "answers", "grid", "confounders", "regime"):
        assert parameters[name].default == CORE[name], name


def test_cli_flags_take_the_cores_defaults(rave_cli):
    shown = json.loads(rave_cli("generate", "--print-defaults").stdout)
    for name in ("seed", "val", "test", "answers", "grid", "confounders", "regime", "style"):
        assert shown[f"--{name}"] == str(CORE[name]), name


def test_generate_defaults_make_the_clis_files(rave_cli, tmp_path):
    # rave.generate with no options writes the bytes `rave generate` with no options writes, in the
    # split the core's val and test give problem k
    rave_cli("generate", "-n", "10", "-c", "center_single", "-o", tmp_path)
    for k in range(10):
        split = "test" if k >= 10 - CORE["test"] else "val" if k >= 10 - CORE["val"] - CORE["test"] else "train"
        written = (tmp_path / "center_single" / f"RAVEN_{k}_{split}.npz").read_bytes()
        assert rave.generate("center_single", k).to_npz_bytes() == written, k


def test_option_defaults_name_every_job():
    assert set(OPTIONS) == {"export", "score", "solve", "check"}
    assert OPTIONS["export"]["style"] in ("ibm-2025", "ibm-2024", "lm-raven")


def rows_word(rows_shown):
    return "all" if rows_shown == 0 else str(rows_shown)


# Each command's --print-defaults against the library's options: {flag: (job, key, as the flag spells it)}.
CLI_FLAGS = {
    "export": {"--format": "format", "--style": "style", "--rows-shown": "rows_shown",
               "--classmode": "classmode", "--uncertainty-seed": "uncertainty_seed"},
    "score": {"--protocol": "protocol", "--ties": "ties", "--logprob-score": "logprob_score", "--nattr": "nattr"},
    "solve": {"--backend": "backend", "--rlimit": "rlimit", "--timeout-ms": "timeout_ms"},
    "check": {"--backend": "backend"},
}


@pytest.mark.parametrize("command", sorted(CLI_FLAGS))
def test_cli_flags_take_the_options_defaults(rave_cli, command):
    shown = json.loads(rave_cli(command, "--print-defaults").stdout)
    for flag, key in CLI_FLAGS[command].items():
        value = OPTIONS[command][key]
        expected = rows_word(value) if key == "rows_shown" else "all" if key == "nattr" and value == 0 else str(value)
        assert shown[flag] == expected, (command, flag)


def test_solve_and_check_bindings_take_the_options_defaults():
    solve = binding_defaults(rave.solve)
    for name in ("backend", "use_rules", "threads"):
        assert solve[name] == OPTIONS["solve"][name], name
    check = binding_defaults(_rave.check)
    wrapper = inspect.signature(rave.check).parameters
    for name in ("backend", "threads"):
        assert check[name] == OPTIONS["check"][name], name
        assert wrapper[name].default == OPTIONS["check"][name], name


def test_harness_takes_the_export_style():
    from rave import harness
    assert inspect.signature(harness.export_harness).parameters["style"].default == OPTIONS["export"]["style"]


def test_python_owned_defaults_are_the_same_on_every_face(rave_cli):
    # the learner audit's folds and learners (rave.shortcuts) and the harness's task name and samples
    # (rave.harness) are the Python package's: `rave check` / `rave export` show them, and rave.check
    # passes them on; a face that drifts from them fails here
    shortcuts = pytest.importorskip("rave.shortcuts")
    from rave import harness
    audit = inspect.signature(shortcuts.audit).parameters
    wrapper = inspect.signature(rave.check).parameters
    for name in ("folds", "seed", "learners"):
        assert wrapper[name].default == audit[name].default, name
    check = json.loads(rave_cli("check", "--print-defaults").stdout)
    assert check["--folds"] == str(audit["folds"].default)
    assert check["--shortcut-learners"] == ",".join(audit["learners"].default)
    writer = inspect.signature(harness.export_harness).parameters
    export = json.loads(rave_cli("export", "--print-defaults").stdout)
    assert export["--task-name"] == writer["name"].default
    assert export["--samples"] == str(writer["samples"].default)
