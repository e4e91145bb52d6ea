#!/usr/bin/env bash
# Writers of different kinds and parameters started together into one empty folder (issue 28's D1
# and D11): three shards, one of them with other parameters; a whole-dataset writer beside a shard
# with other parameters, in both orders. Whatever the timing, exactly one set of parameters lands:
# every problem file, the record .rave-parameters.json and any manifest agree, and two writers
# with different parameters never both succeed. Usage: writer_race_test.sh RAVE_BINARY [TRIALS]
set -u
# shellcheck source=../../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../cli_lib.sh"
trials="${2:-10}"

# The distinct confounders="K" of the folder's XML files, the record's and the manifests'.
landed() {
  local dir=$1
  {
    cat "$dir"/*/RAVEN_*.xml 2>/dev/null | grep -o 'confounders="[0-9]*"' | sort -u | tr -dc '0-9\n'
    for m in "$dir"/.rave-parameters.json "$dir"/rave*.json; do
      [[ -f $m ]] && "$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["variant"]["confounders"])' "$m"
    done
  } | sort -u | grep -c .
}

gen() { "$rave" generate -n 12 -c center,2x2,3x3 --grid 4 -j 1 -o "$@"; }

for ((t = 1; t <= trials; ++t)); do
  # D1: shards 1/3 and 3/3 with 2 confounders, 2/3 with 3.
  d="$work/d1-$t"
  gen "$d" --confounders 2 --shard 1/3 >"$work/a" 2>&1 & a=$!
  gen "$d" --confounders 3 --shard 2/3 >"$work/b" 2>&1 & b=$!
  gen "$d" --confounders 2 --shard 3/3 >"$work/c" 2>&1 & c=$!
  wait $a; ra=$?; wait $b; rb=$?; wait $c; rc=$?
  [[ $(landed "$d") == 1 ]] || fail "D1 trial $t: $(landed "$d") parameter sets in one folder"
  [[ $ra == 0 && $rc == 0 && $rb == 0 ]] && fail "D1 trial $t: shards with other parameters all succeeded"
  [[ $rb != 0 ]] && ! grep -q "confounders: 2 in .rave-parameters.json, 3 in this run" "$work/b" &&
    ! grep -q "in use by another writer" "$work/b" && fail "D1 trial $t: refusal does not name the parameter: $(cat "$work/b")"

  # D11: a whole-dataset writer and a shard, different confounders, started in either order.
  d="$work/d11-$t"
  if ((t % 2)); then
    gen "$d" --confounders 2 >"$work/a" 2>&1 & a=$!
    gen "$d" --confounders 3 --shard 1/3 >"$work/b" 2>&1 & b=$!
  else
    gen "$d" --confounders 3 --shard 1/3 >"$work/b" 2>&1 & b=$!
    gen "$d" --confounders 2 >"$work/a" 2>&1 & a=$!
  fi
  wait $a; ra=$?; wait $b; rb=$?
  [[ $ra == 0 && $rb == 0 ]] && fail "D11 trial $t: both writers succeeded"
  [[ $(landed "$d") -le 1 ]] || fail "D11 trial $t: $(landed "$d") parameter sets in one folder"
  compgen -G "$d/rave.shard-*" >/dev/null && [[ -f $d/rave.json ]] &&
    fail "D11 trial $t: a shard manifest beside the whole dataset's rave.json"
done

# A mismatched shard started after another finished names the parameter (D2).
d="$work/late"
gen "$d" --confounders 2 --shard 1/2 >/dev/null 2>&1 || fail "late: first shard"
[[ $(run gen "$d" --confounders 3 --shard 2/2) == 1 ]] || fail "late shard: exit code"
grep -q "confounders: 2 in .rave-parameters.json, 3 in this run" "$work/err" || fail "late shard: $(cat "$work/err")"

# A shard's resume names its own records, not a rave.json it does not have (D2).
[[ $(run gen "$d" --confounders 2 --shard 1/2 --resume) == 0 ]] || fail "late: resume the first shard: $(cat "$work/err")"
grep -q "verified against their records (rave.shard-1-of-2.json (or rave.json) and the journal)" "$work/out" ||
  fail "shard resume summary: $(cat "$work/out")"

finish "writer race ($trials trials)"
