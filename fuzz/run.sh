#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in their own build dir and fuzzes the
# sentence parser for a bounded time. Exit status 0: no finding; non-zero: a crash, a sanitizer
# report or a failed property (the reproducer is written to the build dir, see fuzz/README.md).
#   fuzz/run.sh                 # 60 s
#   fuzz/run.sh 300             # 5 minutes
#   RAVE_FUZZ_BUILD=/tmp/fz RAVE_JOBS=2 fuzz/run.sh 30
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
build="${RAVE_FUZZ_BUILD:-$root/build-fuzz}"
jobs="${RAVE_JOBS:-2}"

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DRAVE_BUILD_FUZZERS=ON -DRAVE_BUILD_NEURAL=OFF -DRAVE_BUILD_BENCH=OFF -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build" -j "$jobs" --target rave_fuzz_sentence

# The corpus grows across runs in the build dir; it is seeded from the golden files every time.
corpus="$build/fuzz-corpus/sentence"
mkdir -p "$corpus" "$build/fuzz-findings"
cp "$root"/tests/data/grammar/*.sentence "$corpus"/

cd "$build/fuzz-findings"
"$build/fuzz/rave_fuzz_sentence" "$corpus" -dict="$root/fuzz/sentence.dict" \
  -max_total_time="$seconds" -max_len=4096 -timeout=5 -rss_limit_mb=2048 -print_final_stats=1
