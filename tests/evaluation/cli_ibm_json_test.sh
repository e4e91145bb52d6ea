#!/usr/bin/env bash
# IBM's problem files (docs/evaluation.md#ibms-json-files) through every command that reads them:
# `rave solve`, `rave export` and `rave score --data` (with its Solver and Context-blind rows) on
# IBM's I-RAVEN-X file, on the same file made larger than any read cap (whitespace between its
# problems, 65 MiB: more than the 64 MiB that `rave score --data` once took), and one-line errors
# naming file, line and column for a key that comes twice or is no problem number; out of memory
# (a 20 MB problem whose tree needs more than a 256 MiB address space) is one line and exit 1,
# never an abort.
# Usage: cli_ibm_json_test.sh RAVE_BINARY SOURCE_DIR
set -u
# shellcheck source=../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"
src="$2"
name=center_single_shuffle_n_10_maxval_1000_nconf_3.json
ibm="$src/tests/fixtures/ibm/$name"
field() { "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, {"d": d}))' "$@"; }
# IBM's own answers as predictions: {"id": key, "answer": target}.
"$py" -c '
import json, sys
for k, p in json.load(open(sys.argv[1])).items():
    print(json.dumps({"id": k, "answer": int(p["target"])}))
' "$ibm" >"$work/truth.jsonl" || fail "truth predictions"

# score --data takes IBM's file: the answers, and the two reference rows.
[[ $(run "$rave" score "$work/truth.jsonl" --data "$ibm" --json) == 0 ]] || fail "score --data IBM json: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"], d["set_items"], [r["label"] for r in d["rows"]][1:]') == "(100.0, 3, ['Solver', 'Context-blind'])" ]] ||
  fail "score --data IBM json: $(head -c 300 "$work/out")"

# Replies to IBM's prompts ("Answer #k", 0-based) are read as IBM's index with no flag.
"$py" -c '
import json, sys
for k, p in json.load(open(sys.argv[1])).items():
    print(json.dumps({"id": k, "text": "Correct Answer #%d" % int(p["target"])}))
' "$ibm" >"$work/replies.jsonl" || fail "reply predictions"
[[ $(run "$rave" score "$work/replies.jsonl" --data "$ibm" --json) == 0 ]] || fail "score replies: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"], d["unreadable"]') == "(100.0, 0)" ]] || fail "IBM replies: $(head -c 300 "$work/out")"

# A file over 64 MiB (IBM's own I-RAVEN-X files are 112 and 198 MB) is read by all three.
mkdir -p "$work/big"
big="$work/big/$name"
"$py" -c '
import sys
text = open(sys.argv[1]).read()
with open(sys.argv[2], "w") as out:
    out.write("{")
    for _ in range(65):
        out.write((" " * 1023 + "\n") * 1024)
    out.write(text[1:])
' "$ibm" "$big" || fail "big file"
(($(stat -c %s "$big") > 64 * 1024 * 1024)) || fail "big file: not over 64 MiB"
[[ $(run "$rave" score "$work/truth.jsonl" --data "$big" --json) == 0 ]] || fail "score --data over 64 MiB: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"], [r["label"] for r in d["rows"]][1:]') == "(100.0, ['Solver', 'Context-blind'])" ]] ||
  fail "score --data over 64 MiB: $(head -c 300 "$work/out")"
[[ $(run "$rave" solve "$big") == 0 ]] || fail "solve over 64 MiB: $(cat "$work/err")"
grep -q "accuracy 100.00% on the 3 of 3" "$work/out" || fail "solve over 64 MiB: $(tail -3 "$work/out")"
[[ $(run "$rave" export "$big" -o "$work/big.jsonl") == 0 && $(wc -l <"$work/big.jsonl") == 3 ]] ||
  fail "export over 64 MiB: $(cat "$work/err")"
rm -rf "$work/big"

# A key twice, or no problem number: one line naming the key, the file and the place, exit 1.
"$py" -c '
import sys
text = open(sys.argv[1]).read()
open(sys.argv[2], "w").write(text.replace("\"1\": {", "\"0\": {", 1))
open(sys.argv[3], "w").write(text.replace("\"1\": {", "\"one\": {", 1))
' "$ibm" "$work/twice.json" "$work/named.json" || fail "bad keys"
line=$(grep -n '^ "0": {' "$work/twice.json" | sed -n 2p | cut -d: -f1)
twice="rave: error: $work/twice.json:$line:7: problem \"0\" comes twice (first at line 2)"
[[ $(run "$rave" solve "$work/twice.json") == 1 && $(cat "$work/err") == "$twice" ]] || fail "solve: a key twice: $(cat "$work/err")"
[[ $(run "$rave" export "$work/twice.json" -o "$work/x.jsonl") == 1 && $(cat "$work/err") == "$twice" ]] ||
  fail "export: a key twice: $(cat "$work/err")"
[[ $(run "$rave" score "$work/truth.jsonl" --data "$work/twice.json") == 1 && $(cat "$work/err") == "$twice" ]] ||
  fail "score: a key twice: $(cat "$work/err")"
[[ $(run "$rave" solve "$work/named.json") == 1 ]] || fail "a key that is no number: exit code"
[[ $(cat "$work/err") == "rave: error: $work/named.json:$line:2: the key \"one\" is no problem number (IBM's files key problems 0, 1, 2, ...)" ]] ||
  fail "a key that is no number: $(cat "$work/err")"

# Out of memory: one line, exit 1 (not SIGABRT from an uncaught std::bad_alloc). rave solves IBM's
# file in a 64 MiB address space; a problem of 10 million numbers needs far more than 256 MiB: as
# the first problem (its tree made while the file is indexed) and as the second (only checked then,
# its tree made on a worker thread).
for which in first second; do
  "$py" -c '
import sys
text, which = open(sys.argv[1]).read(), sys.argv[3]
pad = "\"pad\": [" + "0," * 10_000_000 + "0], "
at = text.index("\"rules\"") if which == "first" else text.index("\"rules\"", text.index("\"1\": {"))
open(sys.argv[2], "w").write(text[:at] + pad + text[at:])
' "$ibm" "$work/huge.json" "$which" || fail "huge problem"
  for cmd in solve score; do
    args=("$work/huge.json" -j 2)
    [[ $cmd == score ]] && args=("$work/truth.jsonl" --data "$work/huge.json" -j 2)
    code=$(ulimit -v 262144 && run "$rave" "$cmd" "${args[@]}")
    [[ $code == 1 && $(cat "$work/err") == "rave: error: out of memory"* && $(wc -l <"$work/err") == 1 ]] ||
      fail "$cmd out of memory ($which problem): exit code $code, $(head -c 300 "$work/err")"
  done
done
rm -f "$work/huge.json"

# An export named .json is still read as an export (its first key is "id"), not as IBM's file.
[[ $(run "$rave" export "$ibm" -f json -o "$work/key.json") == 0 ]] || fail "export -f json: $(cat "$work/err")"
[[ $(run "$rave" score "$work/truth.jsonl" --data "$work/key.json" --json) == 0 ]] || fail "export key .json: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"], [r["label"] for r in d["rows"]][1:]') == "(100.0, ['Solver', 'Context-blind'])" ]] ||
  fail "export key .json: $(head -c 300 "$work/out")"

finish "IBM JSON CLI"
