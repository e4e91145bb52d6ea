"""Bad input: a Python exception whose message is the line `rave` prints, never a crash."""
import subprocess
import sys

import pytest

import rave
from conftest import cli_error


def test_format_error_is_a_value_error():
    assert issubclass(rave.FormatError, ValueError)
    assert rave.FormatError.__module__ == "rave"


def test_unknown_configuration_is_the_cli_message(rave_cli, tmp_path):
    message = cli_error(rave_cli("generate", "-n", 1, "-o", tmp_path, "--configs", "hexagonal", check=False))
    with pytest.raises(ValueError) as e:
        rave.generate("hexagonal", 0)
    assert str(e.value) == message
    with pytest.raises(ValueError) as e:
        rave.config_name("hexagonal")
    assert str(e.value) == message


def test_unknown_strategy_is_the_cli_message(rave_cli, tmp_path):
    message = cli_error(rave_cli("generate", "-n", 1, "-o", tmp_path, "--answers", "I-RAVEN", check=False))
    with pytest.raises(ValueError) as e:
        rave.generate("center", 0, answers="I-RAVEN")
    assert str(e.value) == message


def test_negative_index_is_a_value_error():
    with pytest.raises(ValueError, match="problem index -3 is negative"):
        rave.generate("center", -3)


def test_missing_path_is_file_not_found_with_the_cli_message(rave_cli, tmp_path):
    missing = tmp_path / "nowhere" / "RAVEN_0_train.xml"
    message = cli_error(rave_cli("solve", missing, check=False))
    for call in (rave.load, rave.solve, rave.check):
        with pytest.raises(FileNotFoundError) as e:
            call(missing)
        assert str(e.value) == message, call
    with pytest.raises(FileNotFoundError):
        rave.load_arrays(tmp_path / "missing.npz")


def test_corrupt_files_are_format_errors_with_the_cli_message(rave_cli, tmp_path):
    p = rave.generate("distribute_four", 0)
    p.save(tmp_path / "RAVEN_0_train")
    xml = tmp_path / "RAVEN_0_train.xml"
    xml.write_text(p.to_xml().replace("<Panel>", "<Panel><Oops", 1))
    message = cli_error(rave_cli("solve", xml, check=False))
    assert message.startswith(str(xml))
    for call in (rave.load, rave.solve):
        with pytest.raises(rave.FormatError) as e:
            call(xml)
        assert str(e.value) == message, call
    npz = tmp_path / "RAVEN_0_train.npz"
    npz.write_bytes(npz.read_bytes()[:1000])
    with pytest.raises(rave.FormatError, match=str(npz)):
        rave.load_arrays(npz)
    asig = tmp_path / "bad.asig"
    asig.write_text("rave-asig 1\nconfiguration nowhere\n")
    message = cli_error(rave_cli("solve", asig, check=False))
    with pytest.raises(ValueError) as e:
        rave.load(asig)
    assert isinstance(e.value, rave.FormatError) and str(e.value) == message


def test_a_folder_with_a_corrupt_file_raises_its_line(tmp_path):
    rave.generate("center", 0).save(tmp_path / "RAVEN_0_train")
    (tmp_path / "RAVEN_1_train.xml").write_text("<Data>")
    with pytest.raises(rave.FormatError, match="RAVEN_1_train.xml"):
        rave.solve(tmp_path)
    results = rave.check(tmp_path)
    assert "error" in results[1] and "failed" in results[0]


def test_saving_into_a_missing_folder_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        rave.generate("center", 0).save(tmp_path / "no" / "RAVEN_0_train")
    assert not list(tmp_path.iterdir())


def test_the_interpreter_survives_every_bad_call(tmp_path):
    script = f"""
import rave
calls = [lambda: rave.generate("x", 0), lambda: rave.generate("center", -1), lambda: rave.load({str(tmp_path)!r}),
         lambda: rave.load("/nonexistent.xml"), lambda: rave.solve(42), lambda: rave.generate_batch(3, [0]),
         lambda: rave.resize(b"abc", 2), lambda: rave.generate("center", 0, seed=-1), lambda: rave.load_arrays(None)]
for call in calls:
    try:
        call()
    except Exception as e:
        print(type(e).__name__)
print("alive")
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split()[-1] == "alive"
    assert len(result.stdout.split()) == 10


def test_generate_batch_takes_integer_indices_only():
    with pytest.raises(ValueError, match="indices must be integers, not float64"):
        rave.generate_batch("center_single", [0.5])
    with pytest.raises(ValueError, match="indices must be integers, not bool"):
        rave.generate_batch("center_single", [True])
    assert rave.generate_batch("center_single", [0, 1], images=False)["target"].shape == (2,)
