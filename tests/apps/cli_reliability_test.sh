#!/usr/bin/env bash
# CLI contract of rave's integrity and hardening (issue 14): two writers never mix a dataset, --resume
# continues only the same dataset and verifies what it keeps, SIGTERM stops cleanly, counts and seeds
# out of range are refused, hostile files are refused one line each without stopping a batch, and
# the rough edges a new user meets.
# Usage: cli_reliability_test.sh RAVE_BINARY
set -u
# shellcheck source=../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"
py=/usr/bin/python3

one_line() { [[ $(wc -l <"$work/err") -le 1 ]] || fail "$1: error is not one line: $(head -c 400 "$work/err")"; }
tree_sum() { (cd "$1" && find . -type f | sort | xargs sha256sum); }

# --- seeds and counts out of range are refused, not clamped ---------------------------------------
for seed in -1 18446744073709551616 100000000000000000000000 1e5 0x10; do
  [[ $(run "$rave" generate -n 1 -c center -o "$work/s" --seed "$seed") == 2 ]] || fail "seed $seed accepted"
  grep -q -- "--seed must be a whole number from 0 to 18446744073709551615" "$work/err" || fail "seed $seed: $(cat "$work/err")"
done
[[ $(run "$rave" generate -n 1 -c center -o "$work/s" --seed 18446744073709551615) == 0 ]] || fail "seed 2^64-1 refused"
for n in 2635249153387078803 100000000000000000000 -3 0; do
  [[ $(run "$rave" generate -n "$n" -o "$work/n") == 2 ]] || fail "-n $n accepted: $(cat "$work/out")"
  one_line "-n $n"
done
[[ ! -e "$work/n/rave.json" ]] || fail "a refused -n wrote a manifest"
[[ $(run "$rave" generate -n 1 -c center,center -o "$work/c") == 2 ]] || fail "-c center,center accepted"
grep -q "names center_single twice" "$work/err" || fail "duplicate configuration not named: $(cat "$work/err")"
for j in 0 -1 100000; do
  [[ $(run "$rave" generate -n 1 -c center -o "$work/j" -j "$j") == 2 ]] || fail "-j $j accepted"
  [[ $(wc -c <"$work/err") -lt 300 ]] || fail "-j $j: a long error: $(head -c 300 "$work/err")"
  grep -q "1 to 1024" "$work/err" || fail "-j $j: $(cat "$work/err")"
done

# --- two writers at once: one wins, the other is refused naming it; nothing is mixed ---------------
"$rave" generate -n 20 -c center,3x3 -o "$work/ref7" --seed 7 -j 1 >/dev/null 2>&1
"$rave" generate -n 20 -c center,3x3 -o "$work/ref8" --seed 8 -j 1 >/dev/null 2>&1
tree_sum "$work/ref7" | grep -v rave.json >"$work/ref7.sum"
tree_sum "$work/ref8" | grep -v rave.json >"$work/ref8.sum"
for round in 1 2 3; do
  rm -rf "$work/mix"
  "$rave" generate -n 20 -c center,3x3 -o "$work/mix" --seed 7 -j 1 >"$work/a.out" 2>"$work/a.err" &
  a=$!
  "$rave" generate -n 20 -c center,3x3 -o "$work/mix" --seed 8 -j 1 >"$work/b.out" 2>"$work/b.err" &
  b=$!
  wait $a; ra=$?
  wait $b; rb=$?
  [[ $((ra + rb)) == 1 ]] || fail "round $round: both writers exit $ra and $rb: $(cat "$work/a.err" "$work/b.err")"
  winner=7; loser_err="$work/b.err"
  [[ $ra == 0 ]] || { winner=8; loser_err="$work/a.err"; }
  grep -Eq "in use by another writer \(pid [0-9]+ on .*rave generate|holds another dataset \(seed" "$loser_err" ||
    fail "round $round: the second writer is not told why: $(cat "$loser_err")"
  tree_sum "$work/mix" | grep -v rave.json | cmp -s - "$work/ref$winner.sum" ||
    fail "round $round: the folder is not the seed-$winner dataset alone"
done

# --- --resume checks what it continues -------------------------------------------------------------
"$rave" generate -n 10 -c center -o "$work/fair" -a fair -j 1 >/dev/null 2>&1
[[ $(run "$rave" generate -n 10 -c center -o "$work/fair" --resume) == 1 ]] || fail "a FAIR set resumed as RAVEN"
grep -q "answers: fair in rave.json, raven in this run" "$work/err" || fail "answers difference: $(cat "$work/err")"
[[ $(run "$rave" generate -n 10 -c center -o "$work/fair" -a fair --seed 8 --resume) == 1 ]] || fail "seed 8 continued seed 1234"
grep -q "seed: 1234 in rave.json, 8 in this run" "$work/err" || fail "seed difference: $(cat "$work/err")"
one_line "resume with another seed"
tree_sum "$work/fair" >"$work/fair.sum"
truncate -s 1000 "$work/fair/center_single/RAVEN_1_train.npz"
: >"$work/fair/center_single/RAVEN_2_train.xml"
[[ $(run "$rave" generate -n 10 -c center -o "$work/fair" -a fair --resume) == 0 ]] || fail "resume: $(cat "$work/err")"
grep -q "wrote 2 problems (8 skipped" "$work/out" || fail "truncated npz or empty XML kept: $(cat "$work/out")"
grep -q "8 problems verified against rave.json and kept, 2 redone" "$work/out" || fail "resume summary: $(cat "$work/out")"
tree_sum "$work/fair" | cmp -s - "$work/fair.sum" || fail "the resumed set differs from the original"
$py -c 'import json,sys,zlib,os
m=json.load(open(sys.argv[1]+"/rave.json"))
assert m["complete"] and m["answers"]=="fair" and m["counts"]["problems"]==10, m["counts"]
for f in m["files"]:
    b=open(os.path.join(sys.argv[1],f["path"]),"rb").read()
    assert len(b)==f["size"] and "%08x"%zlib.crc32(b)==f["crc32"], f' "$work/fair" || fail "rave.json does not verify in Python"
mkdir -p "$work/foreign/center_single" && cp "$work/fair/center_single/RAVEN_0_train."* "$work/foreign/center_single/"
[[ $(run "$rave" generate -n 10 -c center -o "$work/foreign") == 1 ]] || fail "wrote into a folder of unknown files"
grep -q "no rave.json" "$work/err" || fail "unknown files: $(cat "$work/err")"

# --- SIGTERM: the run stops after the problems in flight, says how to resume; resume completes ----
"$rave" generate -n 300 -c 3x3 -o "$work/ref-term" -j 2 >/dev/null 2>&1
RAVE_PROGRESS_SECONDS=0 "$rave" generate -n 300 -c 3x3 -o "$work/term" -j 2 >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 200); do grep -q "generate: [1-9]" "$work/err" 2>/dev/null && break; sleep 0.05; done
kill -TERM $pid
wait $pid
rc=$?
if [[ $rc == 143 ]]; then
  grep -q "interrupted by SIGTERM.*--resume" "$work/err" || fail "SIGTERM: no resume hint: $(tail -2 "$work/err")"
  leftovers=$(find "$work/term" -name '.*.tmp.*' | wc -l)
  [[ $leftovers == 0 ]] || fail "SIGTERM left $leftovers temporary files"
else
  [[ $rc == 0 ]] || fail "SIGTERM: exit $rc"
fi
[[ $(run "$rave" generate -n 300 -c 3x3 -o "$work/term" -j 2 --resume) == 0 ]] || fail "resume after SIGTERM"
tree_sum "$work/term" | cmp -s - <(tree_sum "$work/ref-term") || fail "resumed after SIGTERM differs from a clean run"
[[ -z $(find "$work/term" -name '.rave*' -o -name '.*.tmp.*') ]] || fail "journal, lock or temporary file left"
# Progress lines when stderr is no terminal.
grep -q "^generate: [0-9]*/300 problems" "$work/err" || fail "no progress line in a log: $(head -3 "$work/err")"

# --- --unique-only: every problem provably unique ---------------------------------------------------
[[ $(run "$rave" generate -n 60 -c center,lr -o "$work/unique" --unique-only -j 2) == 0 ]] || fail "unique-only"
grep -q "unique-only: [0-9]* problems of the dataset were redrawn" "$work/out" || fail "no redraw rate: $(cat "$work/out")"
[[ $(run "$rave" check "$work/unique" --strict) == 0 ]] || fail "a --unique-only set fails check --strict: $(cat "$work/out")"
grep -q "^ambiguous (no rules) *0 " "$work/out" || fail "unique-only set has ambiguous problems"

finish "reliability CLI"
