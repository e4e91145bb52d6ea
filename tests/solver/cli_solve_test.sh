#!/usr/bin/env bash
# CLI contract of `rave solve` and `rave check`: exit codes, one error line per bad file naming the
# file and the element path while the other files are still solved, accuracy table, JSON Lines,
# identical output for -j1 and -j2, and `check` failing (exit 3) on a dataset with a defect.
# Usage: cli_solve_test.sh RAVE_BINARY
set -u
# shellcheck source=../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"

[[ $(run "$rave" solve --help) == 0 ]] || fail "solve --help"
grep -q "abduction" "$work/out" || fail "solve --help does not describe abduction"
[[ $(run "$rave" solve "$work" --backend prolog) == 2 ]] || fail "bad backend is not a usage error"
grep -q "^rave: error: .*prolog" "$work/err" || fail "bad backend not named: $(cat "$work/err")"
[[ $(run "$rave" solve "$work/nothing-here") == 1 ]] || fail "missing path: exit code"
[[ $(wc -l <"$work/err") == 1 ]] && grep -q "nothing-here" "$work/err" || fail "missing path: $(cat "$work/err")"

[[ $(run "$rave" generate -n 4 -o "$work/set" -a iraven -s 99 -j 2) == 0 ]] || fail "generate: $(cat "$work/err")"
[[ $(run "$rave" solve "$work/set" -j 1) == 0 ]] || fail "solve generated set: $(cat "$work/err")"
cp "$work/out" "$work/j1.out"
grep -q "^28 problems" "$work/out" || fail "expected 28 problems: $(cat "$work/out")"
grep -Eq "^accuracy % +100.00 +100.00" "$work/out" || fail "accuracy row: $(cat "$work/out")"
grep -Eq "^with target +28 +4 " "$work/out" || fail "known targets beside the accuracy: $(cat "$work/out")"
grep -q "^accuracy 100.00% on the 28 of 28 problems with a known target" "$work/out" ||
  fail "summary line: $(cat "$work/out")"
[[ $(run "$rave" solve "$work/set" -j 2) == 0 ]] || fail "solve -j2"
diff <(sed 's/; [0-9.]* s$//' "$work/j1.out") <(sed 's/; [0-9.]* s$//' "$work/out") >/dev/null ||
  fail "-j1 and -j2 outputs differ"
[[ $(run "$rave" solve "$work/set" --backend z3 --use-rules) == 0 ]] || fail "z3 --use-rules"
grep -q "28 unique, 0 ambiguous" "$work/out" || fail "z3 with rules not all unique: $(head -1 "$work/out")"
[[ $(run "$rave" solve "$work/set/center_single" --json --explain) == 0 ]] || fail "json"
[[ $(wc -l <"$work/out") == 4 ]] || fail "json: expected 4 lines, got $(wc -l <"$work/out")"
grep -q '"verdict":"unique"' "$work/out" && grep -q '"rules":\[{"component":"Grid"' "$work/out" ||
  fail "json fields: $(head -c 300 "$work/out")"
"$py" -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$work/out" || fail "json does not parse"

# A folder with bad files: each gets one line naming the file and place; the rest are solved.
mkdir -p "$work/mixed"
cp "$work/set/center_single/RAVEN_0_train.xml" "$work/set/center_single/RAVEN_0_train.npz" "$work/mixed/"
head -c 3000 "$work/set/distribute_four/RAVEN_1_train.xml" >"$work/mixed/truncated.xml"
printf '<Data><Panels><Panel/></Panels></Data>' >"$work/mixed/missing.xml"
printf '<svg xmlns="http://www.w3.org/2000/svg"/>' >"$work/mixed/image.xml"
[[ $(run "$rave" solve "$work/mixed") == 1 ]] || fail "mixed folder: exit code"
[[ $(wc -l <"$work/err") == 3 ]] || fail "mixed folder: expected 3 error lines: $(cat "$work/err")"
grep -q "truncated.xml:1:" "$work/err" || fail "truncated: no line:col"
grep -q "missing.xml:Data/Panels" "$work/err" || fail "missing panels: no element path"
grep -q "image.xml:" "$work/err" || fail "other kind not named"
grep -q "^1 problems .* 3 errors" "$work/out" || fail "summary does not count errors: $(head -1 "$work/out")"

[[ $(run "$rave" check "$work/set") == 0 ]] || fail "check generated set: $(cat "$work/out" "$work/err")"
grep -q "^failed  *0 " "$work/out" || fail "check: failed row"
grep -Eq "^with target +28 +4 " "$work/out" || fail "check: known targets beside the accuracy: $(cat "$work/out")"

# A problem without <Rules> (a symbolic export by another tool) is solved alike; told to use its
# rules, it is one error line naming the file and the missing element.
mkdir -p "$work/norules"
sed 's|<Rules>.*</Rules>||' "$work/set/distribute_four/RAVEN_1_train.xml" >"$work/norules/RAVEN_1_train.xml"
cp "$work/set/distribute_four/RAVEN_1_train.npz" "$work/norules/"
grep -q "<Rules" "$work/norules/RAVEN_1_train.xml" && fail "sed did not remove the rules"
[[ $(run "$rave" solve "$work/norules" --json) == 0 ]] || fail "no rules: $(cat "$work/err")"
cp "$work/out" "$work/norules.json"
[[ $(run "$rave" solve "$work/set/distribute_four/RAVEN_1_train.xml" --json) == 0 ]] || fail "with rules"
diff <(sed 's/"file":"[^"]*"//' "$work/norules.json") <(sed 's/"file":"[^"]*"//' "$work/out") >/dev/null ||
  fail "removing the rules changed the solution"
[[ $(run "$rave" solve "$work/norules" --use-rules) == 1 ]] || fail "--use-rules without rules: exit code"
[[ $(wc -l <"$work/err") == 1 ]] && grep -q "RAVEN_1_train.xml:Data/Rules: .*unknown" "$work/err" ||
  fail "--use-rules without rules: $(cat "$work/err")"

# No candidate explained: verdict none and no answer (JSON null), from either backend. Row 1 of
# the context gets Types 1, 1, 3: no Type rule fits (Constant, Progression, Distribute_Three).
{
  mkdir -p "$work/none"
  "$py" -c '
import re, sys
xml = open(sys.argv[1]).read()
types = iter(["1", "1", "3"])
xml = re.sub(r"Type=\"\d\"", lambda m: "Type=\"%s\"" % next(types), xml, count=3)
open(sys.argv[2], "w").write(xml)' "$work/set/center_single/RAVEN_1_train.xml" "$work/none/broken.xml"
  for backend in heuristic z3; do
    [[ $(run "$rave" solve "$work/none" --json --backend $backend) == 0 ]] || fail "none: $(cat "$work/err")"
    grep -q '"answer":null,' "$work/out" && grep -q '"verdict":"none"' "$work/out" ||
      fail "$backend none: $(cat "$work/out")"
    grep -q '"reason":"Grid: no Type rule' "$work/out" || fail "$backend none reason: $(cat "$work/out")"
  done
}
# A defect: a distractor replaced by a copy of the answer (duplicate candidates).
{
  mkdir -p "$work/dup" && cp "$work/set/center_single/RAVEN_2_train."* "$work/dup/"
  "$py" - "$work/dup/RAVEN_2_train" <<'EOF'
import re, sys, zipfile, io, struct
stem = sys.argv[1]
with zipfile.ZipFile(stem + ".npz") as z:
    raw = z.read("target.npy")
target = raw[-8:]
t = struct.unpack("<q", target)[0]
xml = open(stem + ".xml").read()
panels = re.findall(r"<Panel>.*?</Panel>", xml)
other = 0 if t != 0 else 1
cands = panels[8:]
cands[other] = cands[t]
xml = xml.replace("".join(panels), "".join(panels[:8] + cands))
open(stem + ".xml", "w").write(xml)
EOF
  [[ $(run "$rave" check "$work/dup") == 3 ]] || fail "check with a duplicate: exit code"
  grep -q "are identical" "$work/out" || fail "check does not name the duplicate: $(cat "$work/out")"
}

finish "solve CLI"
