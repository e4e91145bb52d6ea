# Shared by the CLI contract tests (sourced): $rave from the first argument, a scratch folder
# $work removed on exit, the failure counter, and $py: the Python with numpy that the checks of
# written files use (RAVE_PYTHON, else the repository's .venv, which scripts/setup.sh makes).
#   fail MESSAGE       count a failure and print it
#   run COMMAND...     run it with stdout in $work/out and stderr in $work/err; print its exit code
#   finish NAME        print the verdict and exit 1 when anything failed
rave="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
py="${RAVE_PYTHON:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/.venv/bin/python}"
"$py" -c 'import numpy' 2>/dev/null || { echo "FAIL: no Python with numpy at $py (run scripts/setup.sh, or set RAVE_PYTHON)"; exit 1; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() { "$@" >"$work/out" 2>"$work/err"; echo $?; }
finish() {
  if [[ $failures == 0 ]]; then echo "all $1 checks passed"; else echo "$failures $1 checks failed"; exit 1; fi
}
