#!/usr/bin/env bash
# The symbolic core's unit tests (common, grammar, engine, perception, solver, evaluation, jobs)
# built with AddressSanitizer and UndefinedBehaviorSanitizer in build-asan/ and run: any finding
# ends its test with an error. No LibTorch, Python module or rave-bench. CI runs it
# (.ci/run); it needs the core packages of scripts/setup.sh and GoogleTest.
#
#   scripts/sanitize.sh                     # configure, build, run
#   scripts/sanitize.sh -R 'Npz|Xml'        # extra arguments go to ctest
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build="${RAVE_ASAN_BUILD_DIR:-build-asan}"
jobs="${RAVE_JOBS:-$(nproc)}"
cmake --preset asan -B "$build" >/dev/null
cmake --build "$build" -j "$jobs" --target rave_unit_tests
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
ctest --test-dir "$build" -L unit --output-on-failure -j "$jobs" "$@"
