"""faces/python/examples/train_wren_like.py runs end to end (a few steps) and prints the 7-column table."""
import subprocess
import sys

import pytest

import rave

pytest.importorskip("torch")


def test_example_trains_and_prints_the_table(source_dir):
    script = source_dir / "faces" / "python" / "examples" / "train_wren_like.py"
    result = subprocess.run([sys.executable, str(script), "--steps", "3", "--batch", "4", "--image-size", "40",
                             "--test-per-config", "2", "--workers", "0"], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    header = next(line for line in lines if "Center" in line)
    assert header.split() == list(rave.PAPER_NAMES) + ["mean"]
    for label in ("model", "solver"):
        row = next(line for line in lines if line.startswith(label)).split()
        assert len(row) == 1 + 7 + 1
        assert all(0.0 <= float(v) <= 100.0 for v in row[1:])
    assert "step     3" in result.stdout
