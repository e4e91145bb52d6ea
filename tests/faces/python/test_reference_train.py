"""scripts/neural/reference_train.py's held_signals: a SIGTERM or SIGINT that comes while an epoch's
files are written waits for them, then comes with the handler of before (by default: the end)."""
import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(os.environ.get("RAVE_SOURCE_DIR", Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(ROOT / "scripts" / "neural"))
import reference_train  # noqa: E402


def test_a_signal_inside_reaches_the_old_handler_when_the_writes_end():
    seen = []
    old = signal.signal(signal.SIGTERM, lambda number, _frame: seen.append(number))
    try:
        with reference_train.held_signals():
            os.kill(os.getpid(), signal.SIGTERM)
            assert seen == []
        assert seen == [signal.SIGTERM]
        with reference_train.held_signals():
            pass
        assert seen == [signal.SIGTERM]  # nothing came, nothing raised
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGTERM, old)


def test_the_default_action_ends_the_process_after_the_writes(tmp_path):
    marker = tmp_path / "written"
    child = (f"import os, signal, sys; sys.path.insert(0, {str(ROOT / 'scripts' / 'neural')!r}); "
             "import reference_train\n"
             "with reference_train.held_signals():\n"
             "    os.kill(os.getpid(), signal.SIGTERM)\n"
             f"    open({str(marker)!r}, 'w').write('both files')\n"
             "print('outlived the signal')\n")
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGTERM, done.stderr
    assert marker.read_text() == "both files"
    assert "outlived" not in done.stdout
