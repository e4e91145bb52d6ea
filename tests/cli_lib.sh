# Shared by the CLI contract tests (sourced): $rave from the first argument, a scratch folder
# $work removed on exit, and the failure counter.
#   fail MESSAGE       count a failure and print it
#   run COMMAND...     run it with stdout in $work/out and stderr in $work/err; print its exit code
#   finish NAME        print the verdict and exit 1 when anything failed
rave="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
run() { "$@" >"$work/out" 2>"$work/err"; echo $?; }
finish() {
  if [[ $failures == 0 ]]; then echo "all $1 checks passed"; else echo "$failures $1 checks failed"; exit 1; fi
}
