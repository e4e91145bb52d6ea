#!/usr/bin/env bash
# CLI contract of data-parallel training and the newer train/eval flags: `rave train --nproc 2`
# trains, reports once and resumes; each rank is bound to its own CPUs unless --no-cpu-bind; a killed rank stops the run with one error line naming it, and
# --resume continues from the last checkpoint; a bad file read by one rank is one line; a NaN loss stops every rank with one line; resume with
# another label table is refused naming it; `rave eval --no-candidates-only`; bad --precision and
# --device words; RAVE_SHARED_MEMORY (0 trains over Gloo, a mistyped value is refused).
# Usage: cli_distributed_test.sh RAVE_BINARY
set -u
# shellcheck source=../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"
one_line() { [[ $(wc -l <"$work/err") == 1 ]] && grep -q "^rave: error: .*$1" "$work/err" || fail "$2: $(cat "$work/err")"; }
train() { "$rave" train -m cnn --drt -d "$work/data" -j 1 --loader-threads 1 "$@"; }

[[ $(run "$rave" generate -n 10 -o "$work/data" -s 5 -j 2) == 0 ]] || fail "generate: $(cat "$work/err")"

# Two ranks: one report (rank 0), the global batch in the header, the run's files, then resume.
[[ $(run train -o "$work/run" -e 1 -b 8 --nproc 2) == 0 ]] || fail "nproc 2: $(cat "$work/err")"
grep -q "batch 16 = 2 ranks x 8" "$work/out" || fail "header: $(head -1 "$work/out")"
[[ $(grep -c "^epoch 1/1 " "$work/out") == 1 ]] || fail "one epoch line: $(cat "$work/out")"
[[ $(grep -c "^| CNN+DRT |" "$work/out") == 1 ]] || fail "one test table: $(cat "$work/out")"
for f in best.pt last.pt metrics.jsonl test.md; do [[ -s "$work/run/$f" ]] || fail "nproc 2: missing $f"; done
# The ranks' shares are summed: the test table scores every test problem, not rank 0's half.
tests=$(find "$work/data" -name '*_test.xml' | wc -l)
scored=$(grep "^| CNN+DRT |" "$work/out" | awk -F'|' '{gsub(/ /, "", $12); print $12}')
[[ "$scored" == "$tests" ]] || fail "nproc 2 scored $scored of $tests test problems"
[[ $(run train -o "$work/run" -e 2 -b 8 --nproc 2 --resume --no-cpu-bind) == 0 ]] || fail "nproc 2 resume: $(cat "$work/err")"
grep -q "^epoch 2/2 " "$work/out" && ! grep -q "^epoch 1/2 " "$work/out" || fail "resume did not continue at epoch 2"
! grep -q "^CPUs of the ranks" "$work/out" || fail "--no-cpu-bind still bound the ranks"
[[ $(run train -o "$work/run" -e 3 -b 8 --resume) == 2 ]] || fail "resume with another world size"
one_line "world size 2 (checkpoint) vs 1 (now)" "world size difference not named"

# A rank killed in the middle of the run: one line naming it, exit 1; --resume continues.
"$rave" train -m cnn --drt -d "$work/data" -j 1 --loader-threads 1 -o "$work/kill" -e 100000 -b 8 --nproc 2 \
  >"$work/kill.out" 2>"$work/kill.err" &
launcher=$!
for _ in $(seq 1800); do [[ -s "$work/kill/metrics.jsonl" ]] && break; sleep 0.1; done
rank1=""
declare -A cpus_of
for pid in $(pgrep -P "$launcher"); do
  r=$(tr '\0' '\n' <"/proc/$pid/environ" | sed -n 's/^RANK=//p')
  cpus_of[$r]=$(sed -n 's/^Cpus_allowed_list:\s*//p' "/proc/$pid/status")
  [[ "$r" == 1 ]] && rank1=$pid
done
# Each rank runs bound to its own CPUs, as the header says (with at least 2 CPUs to share).
if (($(nproc) >= 2)); then
  [[ -n "${cpus_of[0]}" && "${cpus_of[0]}" != "${cpus_of[1]}" ]] || fail "ranks not bound: ${cpus_of[*]}"
  grep -qx "CPUs of the ranks: ${cpus_of[0]} | ${cpus_of[1]}" "$work/kill.out" ||
    fail "binding line: $(head -2 "$work/kill.out") vs ${cpus_of[*]}"
fi
[[ -n "$rank1" ]] && kill -9 "$rank1" || fail "no rank 1 to kill"
wait "$launcher"; code=$?
[[ $code == 1 ]] || fail "killed rank: exit code $code"
[[ $(wc -l <"$work/kill.err") == 1 ]] && grep -q "^rave: error: rank 1 of 2 .*killed by signal 9.*--resume" "$work/kill.err" ||
  fail "killed rank: $(cat "$work/kill.err")"
done_epochs=$(wc -l <"$work/kill/metrics.jsonl")
[[ $(run train -o "$work/kill" -e $((done_epochs + 1)) -b 8 --nproc 2 --resume) == 0 ]] || fail "resume after kill: $(cat "$work/err")"
grep -q "^epoch $((done_epochs + 1))/$((done_epochs + 1)) " "$work/out" || fail "resume after kill: $(cat "$work/out")"
[[ $(grep -c "^epoch " "$work/out") == 1 ]] || fail "resume after kill repeated epochs"

# The label table is recorded; resuming with another is refused with its name.
[[ $(run train -o "$work/random" -e 1 --label-embeddings random) == 0 ]] || fail "random labels: $(cat "$work/err")"
[[ $(run train -o "$work/random" -e 2 --resume) == 2 ]] || fail "resume with other labels: exit code"
one_line "label embeddings random (checkpoint) vs glove (now)" "label table difference"

# A corrupt file read by one rank: one line naming it.
cp -r "$work/data" "$work/bad" && printf 'not a zip' >"$work/bad/center_single/RAVEN_1_train.npz"
[[ $(run "$rave" train -m cnn -d "$work/bad" -o "$work/badrun" -e 1 -j 1 --nproc 2) == 1 ]] || fail "corrupt npz: exit code"
one_line "RAVEN_1_train.npz" "corrupt npz under --nproc"
# A loss that is no longer finite: every rank stops at the end of that epoch (on the summed loss),
# one line, no checkpoint written.
[[ $(run "$rave" train -m cnn -d "$work/data" -o "$work/diverged" -e 2 -j 1 -b 8 --nproc 2 --lr 1e38) == 1 ]] || fail "diverging run under --nproc: exit code"
one_line "diverged: epoch 1: the training loss is NaN: training diverged and stopped; no checkpoint was written" "diverging run under --nproc"
[[ ! -e "$work/diverged/last.pt" ]] || fail "a diverged run under --nproc wrote a checkpoint"

# eval: a candidates-only checkpoint is evaluated the same way unless told otherwise.
[[ $(run "$rave" train -m cnn -d "$work/data" -o "$work/blind" -e 1 -j 1 --candidates-only) == 0 ]] || fail "blind"
[[ $(run "$rave" eval "$work/blind/best.pt" -d "$work/data" -j 1 --no-solver) == 0 ]] || fail "eval blind"
grep -q "^| CNN (candidates only) |" "$work/out" || fail "eval blind row: $(cat "$work/out")"
[[ $(run "$rave" eval "$work/blind/best.pt" -d "$work/data" -j 1 --no-solver --no-candidates-only) == 0 ]] || fail "eval with context"
grep -q "^| CNN |" "$work/out" || fail "eval with context row: $(cat "$work/out")"
[[ $(run "$rave" eval "$work/blind/best.pt" -d "$work/data" --candidates-only --no-candidates-only) == 2 ]] || fail "both flags"
one_line "contradict" "both candidates flags"

[[ $(run "$rave" train -m cnn -d "$work/data" -o "$work/p" --precision fp8) == 2 ]] || fail "bad precision"
one_line "unknown precision 'fp8'" "bad precision"
[[ $(run "$rave" train -m cnn -d "$work/data" -o "$work/p" --device cuda:x) == 2 ]] || fail "bad device index"
one_line "unknown device 'cuda:x'" "bad device index"
# A mistyped shared-memory switch: one line naming it, before any rank starts or any file is made.
[[ $(RAVE_SHARED_MEMORY=off run train -o "$work/shm" -e 1 -b 8 --nproc 2) == 2 ]] || fail "RAVE_SHARED_MEMORY=off"
one_line "RAVE_SHARED_MEMORY='off'" "bad RAVE_SHARED_MEMORY"
[[ ! -e "$work/shm" ]] || fail "a refused RAVE_SHARED_MEMORY left a run folder"
# RAVE_SHARED_MEMORY=0: the sums over Gloo train too.
[[ $(RAVE_SHARED_MEMORY=0 run train -o "$work/gloo" -e 1 -b 8 --nproc 2) == 0 ]] || fail "Gloo: $(cat "$work/err")"

finish "distributed CLI"
