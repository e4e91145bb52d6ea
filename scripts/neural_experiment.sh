#!/usr/bin/env bash
# The neural experiments of docs/neural.md, as plans that scripts/neural/campaign.py runs: what is
# missing is trained (two runs at a time on one thread each, on 2 cores), interrupted runs continue
# from last.pt, the data are regenerated from their seeds where absent and checked against rave.json,
# and the tables are made with `rave score --seeds` from whatever runs have finished.
#
#   scripts/neural_experiment.sh                          # Table 2 at the paper's scale: out/table2
#   scripts/neural_experiment.sh status                   # where each run of it stands
#   scripts/neural_experiment.sh cpu-scale out/neural-experiment   # the 1,000-per-configuration experiment
#   SMOKE=1 scripts/neural_experiment.sh                  # the whole chain in a minute (smoke.plan)
#
# PLAN is table2 (default), cpu-scale, smoke or a path; OUT defaults to out/<plan>. Other commands of
# campaign.py go through: `scripts/neural_experiment.sh report [PLAN] [OUT]`, `... measure`, and
# `scripts/neural_experiment.sh publish DEST [PLAN] [OUT]` (tables, status and curves into DEST).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
command=run
case "${1:-}" in run|status|report|publish|measure) command="$1"; shift ;; esac
dest=()
if [[ "$command" == publish ]]; then
  [[ $# -ge 1 ]] || { echo "usage: scripts/neural_experiment.sh publish DEST [PLAN] [OUT]" >&2; exit 2; }
  dest=("$1"); shift
fi
plan="${1:-table2}"
[[ "${SMOKE:-0}" == 1 ]] && plan=smoke
[[ -f "$plan" ]] || plan="$root/scripts/neural/$plan.plan"
[[ -f "$plan" ]] || { echo "neural_experiment: error: no plan $plan (table2, cpu-scale, smoke, or a file)" >&2; exit 2; }
name="$(basename "$plan" .plan)"
out="${2:-$root/out/$name}"
shift $(( $# > 2 ? 2 : $# ))
python="${PYTHON:-python3}"
exec "$python" "$root/scripts/neural/campaign.py" "$command" "${dest[@]}" "$@" --plan "$plan" --out "$out" \
  --rave "${RAVE:-$root/build/apps/rave}"
