#!/usr/bin/env bash
# Data-parallel speed on one machine: `rave train` of CNN+DRT with one single-threaded process
# (batch 32) against --nproc 2 single-threaded ranks (batch 16 each: the same global batch of 32),
# alternating ROUNDS times so both see the same load. Reports the training rate (problems/s, from
# metrics.jsonl, epochs after the first: the decoded split is cached by then) as median [max] per
# side, and the ratio of the medians. Also --no-sync-batch-norm (per-rank statistics).
#   bench/neural/data_parallel.sh [RAVE] [N per configuration] [EPOCHS] [ROUNDS]
set -euo pipefail
rave="${1:-build/apps/rave}"; n="${2:-300}"; epochs="${3:-6}"; rounds="${4:-2}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
"$rave" generate -n "$n" -o "$work/data" -s 3 -j 2 >/dev/null
rates() {  # median and max of train_problems_per_s over epochs 2.. of a run folder
  /usr/bin/python3 -c "import json,statistics,sys; r=[json.loads(l)['train_problems_per_s'] for l in open(sys.argv[1])][1:]; print(f'{statistics.median(r):.1f} {max(r):.1f}')" "$1/metrics.jsonl"
}
declare -A all
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
  for mode in one two two-local; do
    out="$work/$mode-$round"
    case $mode in
      one) "$rave" train -m cnn --drt -d "$work/data" -o "$out" -e "$epochs" -b 32 -j 1 --loader-threads 1 >/dev/null ;;
      two) "$rave" train -m cnn --drt -d "$work/data" -o "$out" -e "$epochs" -b 16 -j 1 --loader-threads 1 --nproc 2 >/dev/null ;;
      two-local) "$rave" train -m cnn --drt -d "$work/data" -o "$out" -e "$epochs" -b 16 -j 1 --loader-threads 1 --nproc 2 \
                   --no-sync-batch-norm >/dev/null ;;
    esac
    read -r median max < <(rates "$out")
    all[$mode]+="$median "
    echo "round $round, $mode: median $median problems/s [max $max], load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
/usr/bin/python3 - "${all[one]}" "${all[two]}" "${all[two-local]}" <<'PY'
import statistics, sys
one, two, local = ([float(x) for x in a.split()] for a in sys.argv[1:])
m1, m2, m3 = statistics.median(one), statistics.median(two), statistics.median(local)
print(f"1 process x 1 thread, batch 32: {m1:.1f} problems/s (median of the rounds' medians)")
print(f"2 ranks x 1 thread, batch 2 x 16, sync batch norm: {m2:.1f} problems/s: {m2 / m1:.2f}x")
print(f"2 ranks x 1 thread, batch 2 x 16, per-rank batch norm: {m3:.1f} problems/s: {m3 / m1:.2f}x")
PY
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
