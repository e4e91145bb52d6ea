"""`pip install .` as a user meets it: a fresh clone of the repository (its committed state) installed
into a fresh virtual environment, then the package imported, `rave` and `python -m rave` run, all
from another folder; and the version pins that pyproject.toml repeats from requirements.txt.

The install builds the C++ core (about 4 minutes on 2 cores without ccache) and fetches the build
backend and numpy from PyPI, as `pip install .` does anywhere."""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tomllib

import pytest


def requirement_pins(source_dir):
    pins = {}
    for line in (source_dir / "requirements.txt").read_text().splitlines():
        match = re.match(r"^([A-Za-z0-9_.-]+)==([^\s#]+)", line)
        if match:
            pins[match.group(1).lower()] = match.group(2)
    return pins


def test_build_requirements_are_pinned_as_in_requirements_txt(source_dir):
    pins = requirement_pins(source_dir)
    project = tomllib.loads((source_dir / "pyproject.toml").read_text())
    for requirement in project["build-system"]["requires"]:
        name, version = requirement.split("==")
        assert pins.get(name.lower()) == version, f"pyproject.toml {requirement} vs requirements.txt"
    assert {"torch", "numpy", "pytest", "pillow", "pyarrow", "datasets"} <= pins.keys()
    assert pins["torch"].startswith("2.")


def cmake_version(source_dir):
    text = (source_dir / "CMakeLists.txt").read_text()
    return re.search(r"project\(rave VERSION ([0-9.]+)", text).group(1)


@pytest.fixture(scope="module")
def installed(source_dir, tmp_path_factory):
    """A fresh clone pip-installed into a fresh venv: (the venv's python, its rave command)."""
    if not (source_dir / ".git").exists():
        pytest.fail(f"{source_dir} is not a git checkout: the test installs a fresh clone of it")
    root = tmp_path_factory.mktemp("pip")
    clone = root / "rave"
    subprocess.run(["git", "clone", "--quiet", "--depth", "1", f"file://{source_dir}", str(clone)],
                   check=True)
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    result = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                             str(clone)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    shutil.rmtree(clone)  # the install must not need its source
    return python, venv / "bin" / "rave"


def run_elsewhere(*args):
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, cwd="/",
                          env={k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "RAVE_CLI")})


def test_the_installed_package_imports_generates_and_solves_from_another_folder(installed, source_dir):
    python, _ = installed
    code = ("import rave; p = rave.generate('O-IG', 7, seed=1234, answers='iraven'); "
            "print(rave.__version__, rave.__file__, p.image.shape, p.target, rave.solve(p).verdict)")
    result = run_elsewhere(python, "-c", code)
    assert result.returncode == 0, result.stderr
    version, path, *rest = result.stdout.split(" ", 2)
    assert version == cmake_version(source_dir)
    assert "site-packages" in path and str(source_dir) not in path
    assert rest[0].strip().endswith("unique")


def test_the_rave_command_and_python_m_rave_run_the_cli(installed, source_dir, tmp_path):
    python, rave = installed
    for command in ([rave], [python, "-m", "rave"]):
        result = run_elsewhere(*command, "--version")
        assert result.returncode == 0 and result.stdout.strip() == f"rave {cmake_version(source_dir)}", result
    out = tmp_path / "demo"
    result = run_elsewhere(python, "-m", "rave", "demo", "-o", out)  # renders: the drawing module is found
    assert result.returncode == 0, result.stderr
    assert len(list(out.glob("*/*.npz"))) == 70
    result = run_elsewhere(rave, "generate", "--no-such-flag")
    assert result.returncode == 2 and result.stderr.startswith("rave: error: ")


def test_the_harness_subpackage_and_its_inspect_entry_point_are_installed(installed, tmp_path):
    """rave.harness is installed with its files, and inspect_ai finds rave's tasks through the package's
    `inspect_ai` entry point (`inspect eval rave/raven`), read here without inspect_ai installed."""
    python, rave = installed
    code = ("import importlib.metadata as m, rave.harness, rave.harness.answers; "
            "print([e.value for e in m.entry_points(group='inspect_ai') if e.name == 'rave'], "
            "rave.read_reply('The answer is (C).', 'letter'))")
    result = run_elsewhere(python, "-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["['rave.harness.inspect_task']", "2"]
    (tmp_path / "set").mkdir()
    result = run_elsewhere(rave, "generate", "-n", "1", "-c", "center_single", "-o", tmp_path / "set")
    assert result.returncode == 0, result.stderr
    result = run_elsewhere(rave, "export", tmp_path / "set", "--harness", "vlmevalkit", "-o", tmp_path / "tsv")
    assert result.returncode == 0 and (tmp_path / "tsv" / "RAVE_sheet.tsv").is_file(), result.stderr
