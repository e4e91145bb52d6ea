#!/usr/bin/env bash
# The GPU recipe of the RAVEN paper's Table 2: all eight rows (LSTM, WReN, CNN, ResNet, each with and
# without the DRT) at the paper's scale and recipe on one GPU, ResNet at 224x224, bf16 autocast, three
# seeds (scripts/neural/table2-gpu.plan; docs/neural.md#the-gpu-recipe).
#
#   scripts/gpu_table2.sh measure   # on the GPU: every run for 2 short epochs (1,000 problems per
#                                   # configuration, 300 trained), and the hours each needs at full scale
#   scripts/gpu_table2.sh train     # on the GPU: the campaign, resumable (re-run it after any stop)
#   scripts/gpu_table2.sh dry-run   # here, on the CPU: the same chain on 10 problems per configuration
#
# RAVE names the rave binary built against the machine's PyTorch (scripts/gpu_check.sh builds
# build-gpu/apps/rave); DIR the campaign folder (out/table2-gpu); SLOTS runs side by side on the GPU
# (1). With OUT set, estimate.md and the tables are copied there.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${1:-measure}"
rave="${RAVE:-}"
if [[ -z "$rave" ]]; then
  rave="$root/build/apps/rave"
  [[ "$mode" != dry-run && -x "$root/build-gpu/apps/rave" ]] && rave="$root/build-gpu/apps/rave"
fi
python="${PYTHON:-python3}"
plan="$root/scripts/neural/table2-gpu.plan"
campaign=("$python" "$root/scripts/neural/campaign.py")
case "$mode" in
  measure)
    dir="${DIR:-$root/out/table2-gpu}"
    "${campaign[@]}" measure --plan "$plan" --out "$dir" --rave "$rave" --n 1000 --epochs 2 --train-limit 300
    [[ -z "${OUT:-}" ]] || cp "$dir/measure/estimate.md" "$OUT/" ;;
  train)
    dir="${DIR:-$root/out/table2-gpu}"
    "${campaign[@]}" run --plan "$plan" --out "$dir" --rave "$rave" --slots "${SLOTS:-1}"
    [[ -z "${OUT:-}" ]] || cp -r "$dir/tables" "$dir/status.md" "$OUT/" ;;
  dry-run)
    # The CPU cannot run 8 rows at 224 in minutes: 10 problems per configuration, 1 epoch, 6 trained,
    # on the CPU in bf16 (autocast runs there too); the estimates are this CPU's, not a GPU's.
    dir="${DIR:-$root/out/table2-gpu-dry}"
    "${campaign[@]}" measure --plan "$plan" --out "$dir" --rave "$rave" --n 10 --epochs 1 --train-limit 6 \
      --set=--device=cpu --set=--loader-threads=2 --set=--cache-mb=2048
    [[ -z "${OUT:-}" ]] || cp "$dir/measure/estimate.md" "$OUT/" ;;
  *) echo "usage: scripts/gpu_table2.sh measure|train|dry-run" >&2; exit 2 ;;
esac
