#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in their own build dir and fuzzes each of
# them for a bounded time: the sentence parser, the XML, .asig, npz and npy readers. Exit status 0:
# no finding; non-zero: a crash, a sanitizer report, a leak or a failed property (the reproducer is
# written to the findings folder, see fuzz/README.md).
#   fuzz/run.sh                       # 60 s per target, all five
#   fuzz/run.sh 300 xml npz           # 5 minutes each for two targets
#   RAVE_FUZZ_BUILD=/tmp/fz RAVE_JOBS=2 fuzz/run.sh 30
#   RAVE_FUZZ_TIMEOUT=120 nice -n 19 fuzz/run.sh 1800 xml   # beside other work: libFuzzer's per-input
#                                                           # timeout is wall-clock, and a niced run waits
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-60}"
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(sentence xml asig npz npy)
build="${RAVE_FUZZ_BUILD:-$root/build-fuzz}"
jobs="${RAVE_JOBS:-2}"

cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DRAVE_BUILD_FUZZERS=ON -DRAVE_BUILD_NEURAL=OFF -DRAVE_BUILD_BENCH=OFF -DBUILD_TESTING=OFF >/dev/null
cmake --build "$build" -j "$jobs" $(printf -- '--target rave_fuzz_%s ' "${targets[@]}")

# Seeds, copied afresh every run into a corpus that grows across runs: the golden sentences of
# tests/data/grammar, the problems of data/ (XML, npz), their .asig forms (fuzz/seeds/asig) and the
# .npy members of data/'s npz files (extracted here).
seed() {
  local name="$1" corpus="$build/fuzz-corpus/$1"
  mkdir -p "$corpus"
  case "$name" in
    sentence) cp "$root"/tests/data/grammar/*.sentence "$corpus"/ ;;
    xml) for f in "$root"/data/*/*/*.xml; do cp "$f" "$corpus/$(basename "$(dirname "$(dirname "$f")")")_$(basename "$(dirname "$f")").xml"; done ;;
    asig) cp "$root"/fuzz/seeds/asig/*.asig "$corpus"/ ;;
    npz) for f in "$root"/data/*/*/*.npz; do cp "$f" "$corpus/$(basename "$(dirname "$(dirname "$f")")")_$(basename "$(dirname "$f")").npz"; done ;;
    npy) python3 - "$corpus" "$root"/data/raven/*/*.npz <<'PY'
import sys, zipfile, os
for path in sys.argv[2:]:
    with zipfile.ZipFile(path) as z:
        for name in z.namelist():
            if name != "image.npy":  # 400 KB; its header is what matters and the others share it
                open(os.path.join(sys.argv[1], os.path.basename(os.path.dirname(path)) + "_" + name), "wb").write(z.read(name))
PY
      ;;
  esac
}

# Per target: the longest input worth trying and extra flags.
flags() {
  case "$1" in
    sentence) echo "-max_len=4096 -dict=$root/fuzz/sentence.dict" ;;
    xml) echo "-max_len=131072" ;;
    asig) echo "-max_len=16384 -dict=$root/fuzz/sentence.dict" ;;
    npz) echo "-max_len=65536" ;;
    npy) echo "-max_len=8192" ;;
  esac
}

mkdir -p "$build/fuzz-findings"
for name in "${targets[@]}"; do
  seed "$name"
  echo "== rave_fuzz_$name: $seconds s"
  # shellcheck disable=SC2046
  (cd "$build/fuzz-findings" && "$build/fuzz/rave_fuzz_$name" "$build/fuzz-corpus/$name" $(flags "$name") \
    -max_total_time="$seconds" -timeout="${RAVE_FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -print_final_stats=1)
done
