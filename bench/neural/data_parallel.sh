#!/usr/bin/env bash
# Data-parallel speed on one machine: `rave train` of CNN+DRT with one single-threaded process
# (batch B) against --nproc 2 single-threaded ranks (batch B/2 each: the same global batch B),
# alternating ROUNDS times so every variant sees the same load. Variants of the two ranks: per-rank
# batch norm with the sums in shared memory (the default path on one machine), batch norm over the
# global batch (sync), per-rank batch norm with the sums over Gloo (RAVE_SHARED_MEMORY=0), and
# per-rank batch norm in shared memory with the ranks left unbound (--no-cpu-bind), and global batch
# norm over Gloo (rave's one-machine shortcuts all off: sums, sharded Adam and the shared decoded
# split). Reports the training rate (problems/s, from metrics.jsonl, epochs after the first: the
# decoded split is cached by then) per run, then the median of the rounds' medians and its ratio
# to one process and to the same batch norm over Gloo.
#   bench/neural/data_parallel.sh [RAVE] [N per configuration] [EPOCHS] [ROUNDS] [GLOBAL BATCH]
#   RAVE_BENCH_MODES="one two-sync two-sync-gloo" bench/neural/data_parallel.sh   # some variants only
set -euo pipefail
rave="${1:-build/apps/rave}"; n="${2:-300}"; epochs="${3:-6}"; rounds="${4:-2}"; batch="${5:-32}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
"$rave" generate -n "$n" -o "$work/data" -s 3 -j 2 >/dev/null
rates() {  # median and max of train_problems_per_s over epochs 2.. of a run folder
  "${RAVE_PYTHON:-.venv/bin/python}" -c "import json,statistics,sys; r=[json.loads(l)['train_problems_per_s'] for l in open(sys.argv[1])][1:]; print(f'{statistics.median(r):.1f} {max(r):.1f}')" "$1/metrics.jsonl"
}
read -r -a modes <<<"${RAVE_BENCH_MODES:-one two two-sync two-gloo two-sync-gloo two-unbound}"
declare -A all
echo "global batch $batch; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
  for mode in "${modes[@]}"; do
    out="$work/$mode-$round"
    common=(train -m cnn --drt -d "$work/data" -o "$out" -e "$epochs" -j 1 --loader-threads 1)
    two=(-b $((batch / 2)) --nproc 2)
    case $mode in
      one) "$rave" "${common[@]}" -b "$batch" >/dev/null ;;
      two) "$rave" "${common[@]}" "${two[@]}" --no-sync-batch-norm >/dev/null ;;
      two-sync) "$rave" "${common[@]}" "${two[@]}" >/dev/null ;;
      two-gloo) RAVE_SHARED_MEMORY=0 "$rave" "${common[@]}" "${two[@]}" --no-sync-batch-norm >/dev/null ;;
      two-sync-gloo) RAVE_SHARED_MEMORY=0 "$rave" "${common[@]}" "${two[@]}" >/dev/null ;;
      two-unbound) "$rave" "${common[@]}" "${two[@]}" --no-sync-batch-norm --no-cpu-bind >/dev/null ;;
    esac
    read -r median max < <(rates "$out")
    all[$mode]+="$median "
    echo "round $round, $mode: median $median problems/s [max $max], load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
summary=()
for mode in "${modes[@]}"; do summary+=("$mode=${all[$mode]}"); done
"${RAVE_PYTHON:-.venv/bin/python}" - "$batch" "${summary[@]}" <<'PY'
import statistics, sys
batch = int(sys.argv[1])
runs = {k: [float(x) for x in v.split()] for k, v in (a.split("=") for a in sys.argv[2:])}
names = {"two": "per-rank batch norm, shared memory", "two-sync": "global batch norm, shared memory",
         "two-gloo": "per-rank batch norm, Gloo", "two-sync-gloo": "global batch norm, Gloo",
         "two-unbound": "per-rank batch norm, shared memory, unbound"}
median = {k: statistics.median(v) for k, v in runs.items()}
if "one" in median:
    print(f"1 process x 1 thread, batch {batch}: {median['one']:.1f} problems/s (median of the rounds' medians)")
for mode, m in median.items():
    if mode == "one":
        continue
    line = f"2 ranks x 1 thread, batch 2 x {batch // 2}, {names[mode]}: {m:.1f} problems/s"
    if "one" in median:
        line += f": {m / median['one']:.2f}x one process"
    gloo = {"two": "two-gloo", "two-sync": "two-sync-gloo", "two-unbound": "two-gloo"}.get(mode)
    if gloo in median:
        ratios = [a / b for a, b in zip(runs[mode], runs[gloo])]
        line += f", {m / median[gloo]:.2f}x over Gloo (rounds: {' '.join(f'{r:.2f}' for r in ratios)})"
    print(line)
PY
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
