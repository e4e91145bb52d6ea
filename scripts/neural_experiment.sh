#!/usr/bin/env bash
# The CPU-scale neural experiment of docs/neural.md: CNN_MLP and ResNet18_MLP (80x80 panels), each
# with and without the Dynamic Residual Tree, trained on ~1,000 generated problems per configuration
# with RAVEN answer sets and with I-RAVEN answer sets, plus the candidates-only ablation (context
# panels zeroed) that exposes RAVEN's answer-set shortcut; every run once per training seed. Then,
# per answer set, `rave eval` writes each checkpoint's answers (predictions/<answers>/<run>.jsonl)
# and `rave score --seeds` makes one table, CSV and chart: test accuracy per configuration, mean
# over the seeds with a 95% t interval, beside the solver's ceiling and the context-blind shortcut.
# About 75 minutes per seed on a 2-core machine with the defaults below. Re-running resumes:
# finished runs are skipped, an interrupted run continues from its last.pt.
#
# Runs go two at a time, one thread each (on 2 cores that beats one run on two threads: these
# models' ops are too small to keep two OpenMP threads busy, see bench/README.md).
#
#   scripts/neural_experiment.sh                 # everything, 3 seeds, into out/neural-experiment
#   SMOKE=1 scripts/neural_experiment.sh         # 10 problems per configuration, 1 epoch, 2 seeds
#   RAVE=build/apps/rave N=1000 EPOCHS_CNN=30 EPOCHS_RESNET=16 SEEDS="1 2 3" scripts/neural_experiment.sh out/x
#   MODELS=cnn N=500 scripts/neural_experiment.sh out/cnn   # the CNN rows alone (no ResNet runs)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

smoke="${SMOKE:-0}"
if [[ "$smoke" == 1 ]]; then
  out="${1:-$root/out/neural-smoke}"
  n="${N:-10}"; epochs_cnn="${EPOCHS_CNN:-1}"; epochs_resnet="${EPOCHS_RESNET:-1}"; seeds="${SEEDS:-12345 23456}"
else
  out="${1:-$root/out/neural-experiment}"
  # ResNet needs about 10 epochs of this data before it leaves chance (measured), hence 16.
  n="${N:-1000}"; epochs_cnn="${EPOCHS_CNN:-30}"; epochs_resnet="${EPOCHS_RESNET:-16}"; seeds="${SEEDS:-12345 23456 34567}"
fi
rave="${RAVE:-$root/build/apps/rave}"
threads="${THREADS:-2}"      # threads for data generation and evaluation
seed="${SEED:-1234}"         # generator seed; the training seeds are SEEDS
lr="${LR:-3e-4}"             # Adam; the reference's 1e-4 learns too slowly on 1/10 of the data
augment="${AUGMENT---shuffle-candidates}"    # AUGMENT= (empty) trains exactly as the reference
labels="${LABELS:-glove}"                   # the DRT's label table
models="${MODELS:-cnn resnet}"              # which model families to train (the ablation is CNN's)

mkdir -p "$out"
log="$out/experiment.log"
say() { echo "[$(date '+%F %T')] $*" | tee -a "$log"; }
[[ -x "$rave" ]] || { echo "no rave binary at $rave (build it, or set RAVE=)" >&2; exit 1; }

say "rave neural experiment: N=$n per configuration, CNN $epochs_cnn epochs, ResNet $epochs_resnet epochs," \
    "models: $models, training seeds $seeds, DRT labels $labels, two runs at a time on one thread each, lr $lr, ${augment:-no augmentation}, $(nproc) cores, out=$out"

# 1. Data: the same seed for both answer-set modes, so the matrices are the same problems.
for answers in raven iraven; do
  say "generate $answers"
  "$rave" generate --num-samples "$n" --save-dir "$out/data/$answers" --answers "$answers" --seed "$seed" \
    -j "$threads" --resume 2>&1 | tee -a "$log"
done

# 2. Training runs: train <answers> <run name> <rave train flags...>, one thread each.
train() {
  local answers="$1" name="$2"; shift 2
  local dir="$out/runs/$answers/$name" resume=()
  if [[ -f "$dir/test.md" ]]; then say "skip $answers/$name (done)"; return; fi
  [[ -f "$dir/last.pt" ]] && resume=(--resume)
  say "train $answers/$name: $*"
  local start=$SECONDS
  "$rave" train --data "$out/data/$answers" --out "$dir" -j 1 --loader-threads 1 --lr "$lr" $augment \
    --label-embeddings "$labels" "${resume[@]}" "$@" \
    >"$out/runs/$answers-$name.log" 2>&1 || true
  [[ -f "$dir/test.md" ]] || { say "run $answers/$name failed (see $out/runs/$answers-$name.log)"; exit 1; }
  say "done $answers/$name in $((SECONDS - start)) s"
}
# pair <run A...> -- <run B...>: two runs side by side; stops if either fails.
pair() {
  local a=() b=()
  while [[ "$1" != -- ]]; do a+=("$1"); shift; done
  shift
  b=("$@")
  train "${a[@]}" & local pid_a=$!
  train "${b[@]}" & local pid_b=$!
  wait "$pid_a" && wait "$pid_b"
}
# The runs of one answer set, in the report's row order: plain models, then +DRT, the ablation last.
runs=(cnn resnet cnn-drt resnet-drt cnn-candidates)
[[ " $models " == *" resnet "* ]] || runs=(cnn cnn-drt cnn-candidates)
mkdir -p "$out/runs"
for s in $seeds; do
  for answers in raven iraven; do
    pair "$answers" "cnn-seed$s" --model cnn --epochs "$epochs_cnn" --seed "$s" -- \
         "$answers" "cnn-drt-seed$s" --model cnn --drt --epochs "$epochs_cnn" --seed "$s"
    [[ " $models " == *" resnet "* ]] || continue
    pair "$answers" "resnet-seed$s" --model resnet --epochs "$epochs_resnet" --image-size 80 --seed "$s" -- \
         "$answers" "resnet-drt-seed$s" --model resnet --drt --epochs "$epochs_resnet" --image-size 80 --seed "$s"
  done
  # The ablation: the same model without the 8 context panels. On RAVEN answer sets the answer is
  # the candidate the others agree with, so a context-blind model can beat chance by far; on I-RAVEN
  # it cannot.
  pair raven "cnn-candidates-seed$s" --model cnn --epochs "$epochs_cnn" --candidates-only --seed "$s" -- \
       iraven "cnn-candidates-seed$s" --model cnn --epochs "$epochs_cnn" --candidates-only --seed "$s"
done

# 3. Reports: every checkpoint's answers as predictions, then one row per model over the seeds
# (mean and 95% t interval) beside the solver's and the context-blind rows.
for answers in raven iraven; do
  checkpoints=() predictions=()
  for r in "${runs[@]}"; do
    for s in $seeds; do
      checkpoints+=("$out/runs/$answers/$r-seed$s/best.pt")
      predictions+=("$out/predictions/$answers/$r-seed$s.jsonl")
    done
  done
  say "eval $answers"
  "$rave" eval "${checkpoints[@]}" --data "$out/data/$answers" -j "$threads" --seeds \
    --predictions "$out/predictions/$answers" >"$out/$answers-eval.md"
  say "score $answers"
  "$rave" score "${predictions[@]}" --data "$out/data/$answers" --seeds -j "$threads" \
    --title "test accuracy, $answers answer sets, $n problems per configuration, seeds: $seeds" \
    --chart "$out/$answers-accuracy.png" --csv "$out/$answers-accuracy.csv" | tee "$out/$answers-accuracy.md"
done
say "finished in $SECONDS s: tables $out/{raven,iraven}-accuracy.md, charts *.png, curves in runs/*/*/curves.png"
