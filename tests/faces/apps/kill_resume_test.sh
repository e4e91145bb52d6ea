#!/usr/bin/env bash
# Kill test of rave generate (issue 14): SIGKILL and SIGTERM at random moments of `generate -n N -j 2`,
# each followed by --resume, must end with the tree of an uninterrupted run (sha256 of every file,
# rave.json included), no temporary, lock or journal file, and a resume summary that accounts for
# every problem (written + kept = total).
# Usage: kill_resume_test.sh RAVE_BINARY [N] [SIGKILLS] [SIGTERMS] [RANDOM_SEED]
#   ctest runs a short version; the issue's measure is `kill_resume_test.sh build/apps/rave 300 20 20`.
set -u
# shellcheck source=../../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../cli_lib.sh"
rave="$(cd "$(dirname "$rave")" && pwd)/$(basename "$rave")"  # the runs cd into their own folders
n="${2:-30}"
kills="${3:-2}"
terms="${4:-2}"
RANDOM="${5:-14}"
total=$((n * 7))
tree_sum() { (cd "$1" && find . -type f | sort | xargs sha256sum); }

# Every run writes "ds" from its own folder: rave.json records the command line, which then agrees.
mkdir -p "$work/clean"
start=$(date +%s%N)
(cd "$work/clean" && "$rave" generate -n "$n" -o ds -j 2 >/dev/null 2>&1) || fail "uninterrupted run"
clean_ms=$((($(date +%s%N) - start) / 1000000))
tree_sum "$work/clean/ds" >"$work/clean.sum"

trial=0
redone_total=0
removed_total=0
for signal in $(printf 'KILL %.0s' $(seq "$kills")) $(printf 'TERM %.0s' $(seq "$terms")); do
  trial=$((trial + 1))
  dir="$work/t$trial"
  mkdir -p "$dir"
  (cd "$dir" && exec "$rave" generate -n "$n" -o ds -j 2 >/dev/null 2>"$dir.err") &
  pid=$!
  delay_ms=$((RANDOM % (clean_ms + 1)))
  sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
  kill -"$signal" "$pid" 2>/dev/null
  { wait "$pid"; } 2>/dev/null
  rc=$?
  [[ $rc == 0 || $rc == 137 || $rc == 143 ]] || fail "trial $trial ($signal after $delay_ms ms): exit $rc: $(tail -1 "$dir.err")"
  if [[ $rc == 143 ]] && grep -q "interrupted by SIGTERM" "$dir.err"; then
    [[ -z $(find "$dir" -name '.*.tmp.*') ]] || fail "trial $trial: SIGTERM left temporary files"
  fi
  [[ $(cd "$dir" && run "$rave" generate -n "$n" -o ds -j 2 --resume) == 0 ]] || fail "trial $trial: resume: $(cat "$work/err")"
  written=$(sed -n 's/^wrote \([0-9]*\) problems (\([0-9]*\) skipped.*/\1/p' "$work/out")
  kept=$(sed -n 's/^wrote \([0-9]*\) problems (\([0-9]*\) skipped.*/\2/p' "$work/out")
  summary=$(grep '^resume: ' "$work/out")
  [[ -n $summary && $((written + kept)) == "$total" ]] || fail "trial $trial: summary does not add up: $(cat "$work/out")"
  redone=$(sed -n 's/.* kept, \([0-9]*\) redone.*/\1/p' <<<"$summary")
  removed=$(sed -n 's/.*redone.*, \([0-9]*\) stray temporary.*/\1/p' <<<"$summary")
  redone_total=$((redone_total + ${redone:-0}))
  removed_total=$((removed_total + ${removed:-0}))
  echo "trial $trial: SIG$signal after $delay_ms ms (exit $rc); resume wrote $written, kept $kept, redid $redone, removed $removed temporary files"
  tree_sum "$dir/ds" | cmp -s - "$work/clean.sum" || fail "trial $trial: the resumed tree differs from the uninterrupted run"
  [[ -z $(find "$dir" -name '.rave*' -o -name '.*.tmp.*') ]] || fail "trial $trial: lock, journal or temporary file left"
  rm -rf "$dir"
done
echo "$trial trials ($kills SIGKILL, $terms SIGTERM) of generate -n $n -j 2 (uninterrupted: $clean_ms ms); resumes redid $redone_total problems and removed $removed_total temporary files"
finish "kill-resume"
