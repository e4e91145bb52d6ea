"""Every face's defaults are the core's (jobs::DatasetSpec, through rave._rave.defaults()): `rave
generate`'s flags, rave.generate, rave.generate_batch and rave.torch.RavenStream. A face that
restates a default and drifts fails here."""
import ast
import inspect
import json

import pytest

import rave
from rave import _rave

CORE = _rave.defaults()


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
