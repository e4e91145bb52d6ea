#!/usr/bin/env bash
# Regenerates data/: one problem per configuration and answer strategy, made by rave itself
# (seed 2019, problem 0, deflated npz). tests/engine/golden_data_test.cpp regenerates the same
# problems and compares bytes, so run this only after an intended change to the generator's output.
#   scripts/make_data.sh [RAVE_BINARY]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rave="${1:-$root/build/apps/rave}"
for strategy in raven iraven fair balanced; do
  rm -rf "$root/data/$strategy"
  "$rave" generate --num-samples 1 --save-dir "$root/data/$strategy" --answers "$strategy" \
    --compress --seed 2019 -j 1
done
# A variant (docs/variants.md): 4 x 4 matrices with two confounders per entity, I-RAVEN answers.
rm -rf "$root/data/variants"
"$rave" generate --num-samples 1 --save-dir "$root/data/variants" --answers iraven --grid 4 --confounders 2 \
  --compress --seed 2019 -j 1
