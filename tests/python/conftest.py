"""Shared fixtures of the Python package's tests (tests/python/CMakeLists.txt runs each file with
PYTHONPATH at the built package and RAVE_CLI at the `rave` executable)."""
import os
import pathlib
import subprocess

import pytest


@pytest.fixture(scope="session")
def rave_cli():
    """Runs `rave ARGS...`; returns the CompletedProcess (text mode)."""
    cli = os.environ.get("RAVE_CLI")
    if not cli:
        pytest.skip("RAVE_CLI (the rave executable) is not set")

    def run(*args, check=True):
        result = subprocess.run([cli, *map(str, args)], capture_output=True, text=True)
        if check and result.returncode != 0:
            raise AssertionError(f"rave {' '.join(map(str, args))} failed: {result.stderr}")
        return result

    return run


def cli_error(result):
    """The message of `rave: error: <message>` (the CLI's one error line)."""
    lines = [line for line in result.stderr.splitlines() if line.startswith("rave: error: ")]
    assert len(lines) == 1, result.stderr
    return lines[0][len("rave: error: "):]


@pytest.fixture(scope="session")
def source_dir():
    return pathlib.Path(os.environ.get("RAVE_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))


@pytest.fixture(scope="session")
def reference_dir():
    """The original generators' problems (../shared/data, or $RAVE_SHARED_DIR/data); skips without them."""
    root = pathlib.Path(os.environ.get("RAVE_SHARED_DIR", pathlib.Path(__file__).resolve().parents[3] / "shared"))
    data = root / "data"
    if not (data / "raven-reference").is_dir():
        pytest.skip(f"no reference problems in {data}")
    return data
