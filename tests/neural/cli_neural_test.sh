#!/usr/bin/env bash
# CLI contract of `rave train` and `rave eval`: a tiny end-to-end run (generate, train 1 epoch,
# resume, eval beside the solver, chart and CSV), and bad input as one error line with exit code 1
# (2 for usage): unknown model, missing data folder, empty split, corrupt npz, missing or foreign
# checkpoint, a checkpoint of another model, an existing run without --resume; damaged checkpoints
# (bytes changed, cut short, empty) refused by rave eval and --resume, and a run whose loss is NaN
# stopped with one line before it writes a checkpoint.
# Usage: cli_neural_test.sh RAVE_BINARY
set -u
# shellcheck source=../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"
one_line() { [[ $(wc -l <"$work/err") == 1 ]] && grep -q "^rave: error: .*$1" "$work/err" || fail "$2: $(cat "$work/err")"; }

[[ $(run "$rave" generate -n 10 -o "$work/data" -s 5 -j 2) == 0 ]] || fail "generate: $(cat "$work/err")"
[[ $(run "$rave" train -m cnn --drt -d "$work/data" -o "$work/run" -e 1 -j 1) == 0 ]] || fail "train: $(cat "$work/err")"
grep -q "^epoch 1/1 " "$work/out" || fail "no epoch line: $(cat "$work/out")"
grep -q "^| CNN+DRT |" "$work/out" || fail "no test table: $(cat "$work/out")"
for f in best.pt last.pt metrics.jsonl curves.png test.md test.csv; do [[ -s "$work/run/$f" ]] || fail "missing $f"; done
[[ $(run "$rave" train -m cnn --drt -d "$work/data" -o "$work/run" -e 2 -j 1 --resume) == 0 ]] || fail "resume: $(cat "$work/err")"
grep -q "^epoch 2/2 " "$work/out" && ! grep -q "^epoch 1/2 " "$work/out" || fail "resume did not continue at epoch 2"
[[ $(wc -l <"$work/run/metrics.jsonl") == 2 ]] || fail "metrics.jsonl after resume"
[[ $(run "$rave" eval "$work/run/best.pt" -d "$work/data" -j 1 --chart "$work/acc.png" --csv "$work/acc.csv" \
      --predictions "$work/pred.jsonl") == 0 ]] || fail "eval: $(cat "$work/err")"
grep -q "^| CNN+DRT |" "$work/out" || fail "eval table: $(cat "$work/out")"
grep -q "^| Solver | 100.00 \[[0-9.]*, 100.00\] |" "$work/out" && grep -q "^| Context-blind |" "$work/out" || fail "eval references: $(cat "$work/out")"
# rave train's own table (test.md, of best.pt after epoch 2) is rave eval's, the unique column included.
row() { grep "^| CNN+DRT |" "$1" | sed 's/| [^|]* |$//'; }
[[ -n "$(row "$work/out")" && "$(row "$work/out")" == "$(row "$work/run/test.md")" ]] ||
  fail "train's test table differs from eval's: $(row "$work/run/test.md") vs $(row "$work/out")"
grep "^| CNN+DRT |" "$work/run/test.md" | grep -q "| - |" && fail "train's test table lacks the unique column"
eval_avg=$(awk -F'|' '/^\| CNN\+DRT \|/ {gsub(/ /, "", $3); print $3}' "$work/out")
[[ -s "$work/acc.png" && $(head -c 4 "$work/acc.png" | tail -c 3) == PNG ]] || fail "chart is not a PNG"
grep -q "^model,note,seeds,Avg,Avg_sd,Avg_ci95_low,Avg_ci95_high,Center," "$work/acc.csv" || fail "csv header"
# The predictions file: one line per test problem, scored by rave score to the same accuracy.
[[ $(wc -l <"$work/pred.jsonl") == 14 ]] || fail "predictions: expected 14 test problems"
grep -q '"model":"CNN+DRT"' "$work/pred.jsonl" && grep -q '"scores":\[' "$work/pred.jsonl" || fail "predictions fields"
[[ $(run "$rave" score "$work/pred.jsonl" -d "$work/data") == 0 ]] || fail "score predictions: $(cat "$work/err")"
score_avg=$(awk -F'|' '/^\| CNN\+DRT \|/ {gsub(/ /, "", $3); print $3}' "$work/out")
[[ -n $eval_avg && $eval_avg == "$score_avg" ]] || fail "rave eval $eval_avg and rave score $score_avg differ"

# Damaged checkpoints: rave eval read a best.pt with 64 changed bytes as other weights (0 % instead
# of 50 %), and --resume from a last.pt with 256 trained on as `train loss -nan`.
flip() { "$py" -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); n = int(sys.argv[2])
for i in range(len(b) // 2, len(b) // 2 + n): b[i] ^= 0xFF
open(sys.argv[1], "wb").write(b)' "$@"; }
cp "$work/run/best.pt" "$work/flipped.pt" && flip "$work/flipped.pt" 64
[[ $(run "$rave" eval "$work/flipped.pt" -d "$work/data" -j 1) == 1 ]] || fail "eval of a best.pt with 64 changed bytes: exit code"
one_line "flipped.pt:byte [0-9]*: damaged or not a checkpoint: CRC mismatch in member" "changed best.pt"
cp -r "$work/run" "$work/damaged" && flip "$work/damaged/last.pt" 256 && cp "$work/damaged/last.pt" "$work/last.copy"
[[ $(run "$rave" train -m cnn --drt -d "$work/data" -o "$work/damaged" -e 3 -j 1 --resume) == 1 ]] || fail "resume from a last.pt with 256 changed bytes: exit code"
one_line "damaged/last.pt:byte [0-9]*: damaged or not a checkpoint: CRC mismatch" "changed last.pt"
cmp -s "$work/damaged/last.pt" "$work/last.copy" && [[ $(wc -l <"$work/damaged/metrics.jsonl") == 2 ]] || fail "a refused resume changed the run"
: >"$work/empty.pt"
[[ $(run "$rave" eval "$work/empty.pt" -d "$work/data") == 1 ]] || fail "empty checkpoint: exit code"
one_line "empty.pt: empty file (0 bytes)" "empty checkpoint"
head -c 5000 "$work/run/best.pt" >"$work/cut.pt"
[[ $(run "$rave" eval "$work/cut.pt" -d "$work/data") == 1 ]] || fail "cut checkpoint: exit code"
one_line "cut.pt:byte 0: damaged or not a checkpoint: not a zip file" "cut checkpoint"
# A loss that is no longer finite stops the run at that step, before anything is written.
[[ $(run "$rave" train -m cnn -d "$work/data" -o "$work/diverged" -e 2 -j 1 --lr 1e38) == 1 ]] || fail "diverging run: exit code"
one_line "diverged: epoch 1: the training loss of step [0-9]* of [0-9]* is NaN: training diverged" "diverging run"
[[ ! -e "$work/diverged/last.pt" && ! -e "$work/diverged/best.pt" ]] || fail "a diverged run wrote a checkpoint"

# Bad input.
[[ $(run "$rave" train -m transformer -d "$work/data" -o "$work/x") == 2 ]] || fail "unknown model: exit code"
one_line "unknown model 'transformer'" "unknown model"
[[ $(run "$rave" train -m cnn -d "$work/nowhere" -o "$work/x") == 1 ]] || fail "missing data: exit code"
one_line "nowhere: no such data folder" "missing data"
[[ $(run "$rave" train -m cnn -d "$work/data" -o "$work/x" -e 1 -j 1 --train-configs center --test-configs oig) == 0 ]] ||
  fail "generalization run: $(cat "$work/err")"
mkdir -p "$work/empty/center_single" && cp "$work/data/center_single/RAVEN_0_train.npz" "$work/empty/center_single/"
[[ $(run "$rave" train -m cnn -d "$work/empty" -o "$work/y") == 1 ]] || fail "empty split: exit code"
one_line "empty split" "empty split"
printf 'not a zip' >"$work/data/center_single/RAVEN_1_train.npz"
[[ $(run "$rave" train -m cnn -d "$work/data" -o "$work/z" -e 1 -j 1) == 1 ]] || fail "corrupt npz: exit code"
one_line "RAVEN_1_train.npz" "corrupt npz not named"
[[ $(run "$rave" train -m cnn --drt -d "$work/data" -o "$work/run" -e 3) == 2 ]] || fail "existing run without --resume"
one_line "already holds a run" "existing run"
[[ $(run "$rave" train -m resnet -d "$work/data" -o "$work/run" -e 3 --resume) == 1 ]] || fail "resume another model"
one_line "holds a CNN+DRT model" "resume another model"
[[ $(run "$rave" eval "$work/run/best.pt" -d "$work/data" --model wren) == 1 ]] || fail "eval another model"
one_line "not WReN" "eval another model"
[[ $(run "$rave" eval "$work/missing.pt" -d "$work/data") == 1 ]] || fail "missing checkpoint"
one_line "no such checkpoint" "missing checkpoint"
[[ $(run "$rave" eval "$work/acc.csv" -d "$work/data") == 1 ]] || fail "foreign checkpoint"
one_line "acc.csv" "foreign checkpoint"
[[ $(run "$rave" train -m cnn -d "$work/data" -o "$work/w" --device tpu) == 2 ]] || fail "bad device"
one_line "unknown device 'tpu'" "bad device"

# libstdc++ comes before LibTorch among rave-train's libraries, so that its functions, not the
# copies libtorch.so exports, answer rave's calls (neural/CMakeLists.txt).
first=$(readelf -d "$(dirname "$rave")/rave-train" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | grep -E '^lib(stdc\+\+|torch)' | head -1)
[[ "$first" == libstdc++* ]] || fail "rave-train lists $first before libstdc++"

finish "neural CLI"
