#!/usr/bin/env bash
# docs/study.md's workflow end to end, over HTTP (issue 41, H1): generate, serve, participants
# answer, export, `rave score --seeds` and `rave study report`. Each participant is scored on the
# problems shown to them and answered: one who answers every test problem right scores 100, one
# who stops after 5 answers (3 right) scores 60, one who answers every problem wrong scores 0, one
# with only practice answers is in no row; the Human row is their mean, with the t interval over
# the 3, and says what it rests on. A damaged export file is one error line naming file and line.
# Usage: study_workflow_test.sh RAVE_BINARY
set -u
# shellcheck source=../../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../cli_lib.sh"
set_dir="$work/study-set"
[[ $(run "$rave" generate -n 20 -o "$set_dir" --answers iraven -s 4 -j 2) == 0 ]] || fail "generate: $(cat "$work/err")"
# The set holds 4 test problems per configuration; the study shows 2 of each: 14 of the 28.
"$rave" study serve "$set_dir" --per-config 2 --practice 1 --port 0 >"$work/serve" 2>&1 &
pid=$!
for _ in $(seq 200); do grep -q "^rave study: http" "$work/serve" && break; sleep 0.1; done
base=$(grep -o 'http://127.0.0.1:[0-9]*' "$work/serve")
[[ -n $base ]] || { fail "serve did not start: $(cat "$work/serve")"; kill "$pid"; finish "study workflow"; }

post() { curl -s --noproxy '*' -X POST -H 'Content-Type: application/json' -H "X-Rave-Token: $1" -d "$2" "$base$3"; }
json() { "$py" -c 'import json,sys; print(eval(sys.argv[1], {}, {"d": json.load(sys.stdin)}))' "$1"; }
# The answer (0-based) of each problem of the set, from its npz: "id target" lines.
"$py" - "$set_dir" >"$work/key" <<'EOF'
import pathlib, sys, numpy as np
root = pathlib.Path(sys.argv[1])
for f in sorted(root.glob("*/*.npz")):
    print(f.relative_to(root).with_suffix("").as_posix(), int(np.load(f)["target"]))
EOF
declare -A target
while read -r id t; do target[$id]=$t; done <"$work/key"
# Participant $1's problem sequence (practice first), one id a line, from the database.
sequence() {
  "$py" -c 'import json,sqlite3,sys; c = sqlite3.connect(sys.argv[1]); print("\n".join(json.loads(c.execute("SELECT sequence FROM participants WHERE id = ?", (int(sys.argv[2]),)).fetchone()[0])))' "$set_dir.study.sqlite" "$1"
}
# enrol_and_answer HOW N: a participant answers the practice problem and N test problems, each
# right (HOW = right), wrong (wrong), or the first 3 right and the rest wrong (mixed).
enrol_and_answer() {
  local how=$1 n=$2 reply token id position=0 label t
  reply=$(post "" '{"name": "'"$how"'"}' /api/participants)
  token=$(json 'd["token"]' <<<"$reply")
  id=$(json 'd["participant"]' <<<"$reply")
  while read -r problem; do
    ((position > n)) && break
    t=${target[$problem]}
    label=$((t + 1))
    if [[ $how == wrong || ($how == mixed && $position -gt 3) ]]; then label=$(((t + 1) % 8 + 1)); fi
    reply=$(post "$token" '{"position": '$position', "answer": '$label', "milliseconds": 1500}' /api/answers)
    grep -q '"next"' <<<"$reply" || fail "answer $position of participant $id: $reply"
    position=$((position + 1))
  done < <(sequence "$id")
}
enrol_and_answer right 14  # participant 1: every test problem, right
enrol_and_answer mixed 5   # participant 2: stops after 5 test problems, 3 right
enrol_and_answer wrong 14  # participant 3: every test problem, wrong
enrol_and_answer right 0   # participant 4: the practice problem only
kill -INT "$pid"
wait "$pid"

out="$work/study-answers"
[[ $(run "$rave" study export "$set_dir" --per-config 2 --practice 1 -o "$out") == 0 ]] || fail "export: $(cat "$work/err")"
grep -q "wrote 33 answers of 3 participants" "$work/out" || fail "export: $(cat "$work/out")"
[[ $(wc -l <"$out/participant-2.jsonl") == 14 ]] || fail "participant 2's file does not list the 14 problems shown: $(cat "$out/participant-2.jsonl")"
[[ $(grep -c '"answer":null' "$out/participant-2.jsonl") == 9 ]] || fail "participant 2's 9 unanswered problems are not listed"
[[ ! -e "$out/participant-4.jsonl" ]] || fail "a participant without a test answer got a file"
[[ $(grep -vc '^#' "$out/problems.txt") == 14 ]] || fail "problems.txt: $(cat "$out/problems.txt")"

# Each participant alone: 100, 60 and 0, with nothing counted wrong that was not answered.
for pair in 1:100.0 2:60.0 3:0.0; do
  file="$out/participant-${pair%%:*}.jsonl"
  [[ $(run "$rave" score "$file" -d "$set_dir" --json) == 0 ]] || fail "score $file: $(cat "$work/err")"
  [[ $(json 'd["accuracy"]' <"$work/out") == "${pair#*:}" ]] || fail "$file scores $(json 'd["accuracy"]' <"$work/out"), not ${pair#*:}"
  ! grep -q "counted wrong" "$work/err" || fail "$file: $(cat "$work/err")"
done
[[ $(json 'd["evaluated"], d["unanswered"]' <"$work/out") == "(14, 0)" ]] || fail "participant 3: $(cat "$work/out")"

# The documented command: one Human row, the mean of 100, 60 and 0 with the t interval over 3
# participants (sd 50.33, half-width 125.0: clipped to 0..100), and what it rests on.
[[ $(run "$rave" score "$out"/*.jsonl -d "$set_dir" --seeds) == 0 ]] || fail "score --seeds: $(cat "$work/err")"
human=$(grep '^| Human |' "$work/out")
[[ $human == "| Human | 53.33 [0.00, 100.00] |"* ]] || fail "Human row: $(cat "$work/out")"
[[ $human == *"| 3 participants, 33 answers, 9 shown unanswered |" ]] || fail "Human row's note: $human"
grep -q "^rave score: Human: 9 problem(s) shown to its participants and not answered, not scored" "$work/err" || fail "score's note: $(cat "$work/err")"
! grep -q "counted wrong" "$work/err" || fail "score --seeds counted problems wrong: $(cat "$work/err")"
grep -q "^| Solver | 100.00" "$work/out" || fail "the solver on the answered problems: $(cat "$work/out")"

# rave study report prints the same row straight from the database.
[[ $(run "$rave" study report "$set_dir" --per-config 2 --practice 1) == 0 ]] || fail "study report: $(cat "$work/err")"
[[ $(grep '^| Human |' "$work/out") == "$human" ]] || fail "study report's row differs: $(cat "$work/out") vs $human"
grep -q "^Human: 3 participants, 33 answers, 9 shown unanswered; 1 enrolled without a test answer" "$work/out" || fail "study report: $(cat "$work/out")"

# A damaged export file: one error line naming the file and the line, exit 1.
one_line() { [[ $(wc -l <"$work/err") == 1 ]] && grep -q "^rave: error: $1" "$work/err" || fail "$2: $(cat "$work/err")"; }
sed '3s/.*/{"id": "center_single/' "$out/participant-1.jsonl" >"$work/damaged.jsonl"
[[ $(run "$rave" score "$work/damaged.jsonl" -d "$set_dir" --seeds) == 1 ]] || fail "a damaged line accepted"
one_line "$work/damaged.jsonl:line 3: not a JSON object" "damaged line"
cat "$out/participant-1.jsonl" "$out/participant-3.jsonl" >"$work/merged.jsonl"
[[ $(run "$rave" score "$work/merged.jsonl" -d "$set_dir") == 1 ]] || fail "two participants in one file accepted"
one_line "$work/merged.jsonl:line 15: participant 3, but line 1 gives participant 1" "merged files"
sed '2s/"participant":1/"participant":-1/' "$out/participant-1.jsonl" >"$work/edited.jsonl"
[[ $(run "$rave" score "$work/edited.jsonl" -d "$set_dir") == 1 ]] || fail "participant -1 accepted"
one_line "$work/edited.jsonl:line 2: \"participant\" must be" "participant -1"
finish "study workflow"
