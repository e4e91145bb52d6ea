"""Shared fixtures of the Python package's tests (tests/faces/python/CMakeLists.txt runs each file with
PYTHONPATH at the built package and RAVE_CLI at the `rave` executable)."""
import concurrent.futures
import hashlib
import json
import os
import pathlib
import shutil
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
    return pathlib.Path(os.environ.get("RAVE_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[3]))


@pytest.fixture(scope="session")
def reference_dir(source_dir, tmp_path_factory, request):
    """The original generators' problems: ../shared/data (or $RAVE_SHARED_DIR/data) where it exists,
    else their output re-created from the repository's fixtures (tests/fixtures/README.md) as the C++
    tests do: each XML copied, its npz rendered by `rave render` with the manifest's answer, and
    checked against the original's sha256 (RAVEN-FAIR's whole file differs only in the shape of
    `predict`, [] here and [1] there, so its image bytes are checked)."""
    root = pathlib.Path(os.environ.get("RAVE_SHARED_DIR", pathlib.Path(__file__).resolve().parents[4] / "shared"))
    data = root / "data"
    if (data / "raven-reference").is_dir():
        return data
    return recreate_reference(source_dir / "tests" / "fixtures" / "reference",
                              request.getfixturevalue("rave_cli"), tmp_path_factory.mktemp("reference"))


def recreate_reference(fixtures, rave_cli, out):
    """<out>/<set>-reference/<configuration>/RAVEN_<k>_<split>.{xml,npz} from the fixtures."""
    problems = json.loads((fixtures / "manifest.json").read_text())["problems"]

    def one(p):
        xml = fixtures / f"{p['file']}.xml"
        kept, config, name = p["file"].split("/")
        folder = out / f"{kept}-reference" / config
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(xml, folder / xml.name)
        npz = folder / f"{name}.npz"
        rave_cli("render", xml, "--target", p["target"], "-o", npz, *(["--compress"] if p["compressed"] else []))
        whole = p["predict_shape"] == [] and p["predict"] == p["target"]
        got = hashlib.sha256(npz.read_bytes()).hexdigest() if whole else image_sha256(npz)
        assert got == (p["npz_sha256"] if whole else p["image_sha256"]), f"{npz}: not the original's"

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        list(pool.map(one, problems))
    return out


def image_sha256(npz):
    import numpy as np
    with np.load(npz) as f:
        return hashlib.sha256(np.ascontiguousarray(f["image"]).tobytes()).hexdigest()
