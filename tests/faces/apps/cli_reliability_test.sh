#!/usr/bin/env bash
# CLI contract of rave's integrity and hardening (issue 14): two writers never mix a dataset, --resume
# continues only the same dataset and verifies what it keeps, SIGTERM stops cleanly, counts and seeds
# out of range are refused, hostile files are refused one line each without stopping a batch, and
# the rough edges a new user meets.
# Usage: cli_reliability_test.sh RAVE_BINARY
set -u
# shellcheck source=../../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../cli_lib.sh"

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
grep -q "center_single is named twice" "$work/err" || fail "duplicate configuration not named: $(cat "$work/err")"
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
  grep -Eq "in use by another writer \(pid [0-9]+ on .*rave generate --num-samples 20|holds another dataset \(seed" "$loser_err" ||
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
grep -q "8 problems verified against their records (rave.json and the journal) and kept, 2 redone" "$work/out" || fail "resume summary: $(cat "$work/out")"
tree_sum "$work/fair" | cmp -s - "$work/fair.sum" || fail "the resumed set differs from the original"
"$py" -c 'import json,sys,zlib,os
m=json.load(open(sys.argv[1]+"/rave.json"))
assert m["complete"] and m["answers"]=="fair" and m["counts"]["problems"]==10, m["counts"]
for f in m["files"]:
    b=open(os.path.join(sys.argv[1],f["path"]),"rb").read()
    assert len(b)==f["size"] and "%08x"%zlib.crc32(b)==f["crc32"], f' "$work/fair" || fail "rave.json does not verify in Python"
mkdir -p "$work/foreign/center_single" && cp "$work/fair/center_single/RAVEN_0_train."* "$work/foreign/center_single/"
[[ $(run "$rave" generate -n 10 -c center -o "$work/foreign") == 1 ]] || fail "wrote into a folder of unknown files"
grep -q "no rave.json" "$work/err" || fail "unknown files: $(cat "$work/err")"

# --- SIGTERM: the run stops after the problems in flight, says how to resume; resume completes ----
# Both runs write "ds" from their own folder, so that rave.json (which records the command) agrees too.
mkdir -p "$work/clean" "$work/stopped"
(cd "$work/clean" && "$rave" generate -n 1500 -c 3x3 -o ds -j 2 >/dev/null 2>&1)
(cd "$work/stopped" && RAVE_PROGRESS_SECONDS=0 exec "$rave" generate -n 1500 -c 3x3 -o ds -j 2 >"$work/term.out" 2>"$work/term.err") &
pid=$!
for _ in $(seq 400); do grep -q "generate: [1-9]" "$work/term.err" 2>/dev/null && break; sleep 0.02; done
kill -TERM $pid
wait $pid
rc=$?
if [[ $rc == 143 ]]; then
  grep -q "interrupted by SIGTERM.*--resume" "$work/term.err" || fail "SIGTERM: no resume hint: $(tail -2 "$work/term.err")"
  leftovers=$(find "$work/stopped" -name '.*.tmp.*' | wc -l)
  [[ $leftovers == 0 ]] || fail "SIGTERM left $leftovers temporary files"
else
  [[ $rc == 0 ]] || fail "SIGTERM: exit $rc"
fi
grep -q "^generate: [0-9]*/1500 problems" "$work/term.err" || fail "no progress line in a log: $(head -3 "$work/term.err")"
[[ $(cd "$work/stopped" && run "$rave" generate -n 1500 -c 3x3 -o ds -j 2 --resume) == 0 ]] || fail "resume after SIGTERM"
tree_sum "$work/stopped/ds" | cmp -s - <(tree_sum "$work/clean/ds") || fail "resumed after SIGTERM differs from a clean run"
[[ -z $(find "$work/stopped" -name '.rave*' -o -name '.*.tmp.*') ]] || fail "journal, lock or temporary file left"

# --- --unique-only: every problem provably unique ---------------------------------------------------
[[ $(run "$rave" generate -n 60 -c center,lr -o "$work/unique" --unique-only -j 2) == 0 ]] || fail "unique-only"
grep -q "unique-only: [0-9]* problems of the dataset were redrawn" "$work/out" || fail "no redraw rate: $(cat "$work/out")"
[[ $(run "$rave" check "$work/unique" --strict) == 0 ]] || fail "a --unique-only set fails check --strict: $(cat "$work/out")"
grep -q "^ambiguous (no rules) *0 " "$work/out" || fail "unique-only set has ambiguous problems"

# --- hostile files: one line each, named, and the others still get their result ----------------------
"$rave" generate -n 2 -c center -o "$work/h" -j 1 >/dev/null 2>&1
good="$work/h/center_single/RAVEN_0_train.xml"
mkdir -p "$work/batch"
cp "$good" "$work/batch/a_good.xml"
cp "$good" "$work/batch/z_good.xml"
sed '0,/Type="/s/Type="/Type="1" Type="/' "$good" >"$work/batch/dup_attr.xml"
{ cat "$good"; echo '<Data/>'; } >"$work/batch/two_roots.xml"
sed '0,/<Panels>/s/<Panels>/<Panels>\xff/' "$good" >"$work/batch/bad_utf8.xml"
sed '0,/Type="/s/Type="/Type="\&#10;rave: error: forged\&#27;[31m/' "$good" >"$work/batch/forge.xml"
mkfifo "$work/fifo.xml"  # a folder's listing skips what is not a regular file; given by name, they are refused
ln -s /dev/zero "$work/zero.xml"
cp "$good" "$work/batch/$(printf 'name\xff.xml')"
[[ $(run timeout 60 "$rave" solve "$work/batch" "$work/fifo.xml" "$work/zero.xml" --json -j 2) == 1 ]] || fail "a hostile batch: exit $(cat "$work/err")"
[[ $(grep -c '^rave: error: ' "$work/err") == 6 ]] || fail "hostile batch: not one error line per bad file: $(cat "$work/err")"
[[ $(grep -vc '^rave: error: \|^[0-9]* problems (\|^no problem has a known target' "$work/err") == 0 ]] || fail "hostile batch: an error took more than one line: $(cat "$work/err")"
! grep -q $'\x1b' "$work/err" || fail "an escape sequence reached the terminal"
for what in "dup_attr.xml:.*Type.*twice" "two_roots.xml:" "bad_utf8.xml:[0-9]*:[0-9]*: .*UTF-8" "fifo.xml: .*not a regular file" "zero.xml: .*not a regular file"; do
  grep -q "$what" "$work/err" || fail "hostile batch: no error matching '$what': $(cat "$work/err")"
done
"$py" -c 'import json,sys
lines=[json.loads(l) for l in open(sys.argv[1])]
assert len(lines)==9, len(lines)
ok=[l for l in lines if "answer" in l]
assert len(ok)==3, [l["file"] for l in ok]' "$work/out" || fail "solve --json: not one valid JSON line per file: $(head -c 600 "$work/out")"

# --- rough edges a new user meets ---------------------------------------------------------------------
[[ $(run "$rave") == 0 ]] && grep -q "generate" "$work/out" || fail "rave alone is not help: $(cat "$work/err")"
[[ $(run "$rave" help) == 0 ]] && grep -q "generate" "$work/out" || fail "rave help is not help"
[[ $(run "$rave" help generate) == 0 ]] && grep -q -- "--unique-only" "$work/out" || fail "rave help generate"
for cmd in "show $work/missing.xml -o $work/m.png" "convert $work/missing.xml $work/m.asig" \
           "render $work/missing.xml -o $work/m.npz" "solve $work/missing.xml"; do
  # shellcheck disable=SC2086
  [[ $(run "$rave" $cmd) == 1 ]] || fail "a missing file: rave $cmd exits $(cat "$work/err")"
  grep -q "missing.xml" "$work/err" || fail "rave $cmd does not name the missing file"
done
[[ $(run "$rave" show "$good" -o "$work/x.jpg") == 2 ]] || fail "show -o x.jpg accepted"
[[ ! -e "$work/x.jpg" ]] || fail "show wrote x.jpg"
"$rave" convert "$good" "$work/p.asig" >/dev/null 2>&1
[[ $(run "$rave" render "$work/p.asig" -o "$work/p.npz") == 0 ]] || fail "render x.asig: $(cat "$work/err")"
[[ $(run "$rave" show "$work/p.asig" -o "$work/p.png") == 0 ]] || fail "show x.asig: $(cat "$work/err")"
grep -v '^rule ' "$work/p.asig" >"$work/norules.asig"
[[ $(run "$rave" solve "$work/norules.asig") == 0 ]] || fail "an .asig without rule lines: $(cat "$work/err")"
# A rule the matrix does not follow, with --use-rules: verdict none, and no answer claimed (the Type
# rule of data/raven/center_single/RAVEN_0_train is a Progression).
data="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)/data"
"$rave" convert "$data/raven/center_single/RAVEN_0_train.xml" "$work/ref.asig" >/dev/null 2>&1
sed 's/^rule 0 Progression Type ?/rule 0 Distribute_Three Type ?/' "$work/ref.asig" >"$work/none.asig"
"$rave" solve "$work/none.asig" --use-rules --json >"$work/none.json" 2>/dev/null
"$py" -c 'import json,sys
j=json.loads(open(sys.argv[1]).readline())
assert j["verdict"]=="none" and j["answer"] is None, j' "$work/none.json" ||
  fail "a none verdict claims an answer: $(cat "$work/none.json")"
"$rave" solve "$work/none.asig" --use-rules >"$work/out" 2>&1
grep -q "none.asig: answer none" "$work/out" || fail "text mode of a none verdict: $(head -1 "$work/out")"
# Standard input, standard output.
"$rave" convert --to asig - -o - <"$good" >"$work/stdin.asig" 2>"$work/err" || fail "convert from stdin: $(cat "$work/err")"
cp "$good" "$work/lonely.xml"  # no sibling npz: the target is not known, as from standard input
"$rave" convert "$work/lonely.xml" "$work/lonely.asig" >/dev/null 2>&1
cmp -s "$work/stdin.asig" "$work/lonely.asig" || fail "convert - -o - differs from convert to a file"
# Fewer than 10 problems: the empty splits are named.
[[ $(run "$rave" generate -n 5 -c center -o "$work/few") == 0 ]] || fail "-n 5"
grep -q "val and test splits get no problem" "$work/out" || fail "-n 5: no note on the empty splits: $(cat "$work/out")"
# FAIR's predict has the original's shape (1,).
"$py" -c 'import numpy as np,sys
z=np.load(sys.argv[1])
assert z["predict"].shape==(1,), z["predict"].shape' \
  "$work/fair/center_single/RAVEN_0_train.npz" || fail "FAIR predict shape"
# --symbolic-only alone (the original tables, 3x3): no images, XML without marks, and its resume.
[[ $(run "$rave" generate -n 10 -c center,oig --symbolic-only -o "$work/sym") == 0 ]] || fail "--symbolic-only alone: $(cat "$work/err")"
"$py" -c 'import numpy as np,sys
z=np.load(sys.argv[1])
assert "image" not in z.files and z["target"].shape == (), z.files' \
  "$work/sym/center_single/RAVEN_0_train.npz" || fail "--symbolic-only npz"
"$rave" generate -n 10 -c center,oig -o "$work/imgs" >/dev/null 2>&1
sed -e 's/ real_bbox="[^"]*"//g' -e 's/ mask="[^"]*"//g' "$work/imgs/center_single/RAVEN_3_train.xml" |
  cmp -s - "$work/sym/center_single/RAVEN_3_train.xml" || fail "--symbolic-only XML is not the full XML without its marks"
rm "$work/sym/center_single/RAVEN_3_train.npz"
[[ $(run "$rave" generate -n 10 -c center,oig --symbolic-only -o "$work/sym" --resume) == 0 ]] || fail "--symbolic-only --resume: $(cat "$work/err")"
[[ $(run "$rave" check "$work/sym") == 0 ]] || fail "check of a --symbolic-only set: $(cat "$work/out" "$work/err")"

finish "reliability CLI"
