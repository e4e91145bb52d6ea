#!/usr/bin/env bash
# The ranks' gradient sum on one machine: 2 single-threaded ranks all-reduce ELEMENTS float32
# (default 2,097,152: CNN+DRT's 8 MB of gradients) REPS times, with the sums in shared memory and
# over Gloo's loopback (RAVE_SHARED_MEMORY=0), alternating ROUNDS times. Prints each rank's min and
# median per run.
#   bench/neural/allreduce.sh [RAVE_ALLREDUCE] [ELEMENTS] [REPS] [ROUNDS]
set -euo pipefail
bin="${1:-build/bench/rave-allreduce}"; n="${2:-2097152}"; reps="${3:-30}"; rounds="${4:-3}"
port=$((29700 + RANDOM % 200))
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq "$rounds"); do
  for shm in 1 0; do
    port=$((port + 1))
    for rank in 0 1; do
      RAVE_SHARED_MEMORY=$shm WORLD_SIZE=2 RANK=$rank MASTER_ADDR=127.0.0.1 MASTER_PORT=$port \
        OMP_NUM_THREADS=1 "$bin" "$n" "$reps" &
    done
    wait
  done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
