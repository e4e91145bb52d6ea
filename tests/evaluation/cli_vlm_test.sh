#!/usr/bin/env bash
# CLI contract of `rave show --vlm` (image benchmarks for vision-language models) and of `rave show
# --no-answer`: every JSON Lines field and the files it names, no answer anywhere unless asked (and
# never drawn), byte-identical folders for -j 1 and -j 2, one-line errors naming the file with exit
# code 1 (a truncated npz, a malformed XML, a problem with 100 levels) and the folder left as it was.
# Usage: cli_vlm_test.sh RAVE_BINARY
set -u
# shellcheck source=../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"
one_line_error() {  # $1: what, $2: the file the error must name
  [[ $(wc -l <"$work/err") == 1 ]] || fail "$1: error is not one line: $(cat "$work/err")"
  grep -q "^rave: error: .*$2" "$work/err" || fail "$1: error does not name $2: $(cat "$work/err")"
}

[[ $(run "$rave" generate -n 3 -o "$work/set" -s 7) == 0 ]] || fail "generate: $(cat "$work/err")"
[[ $(run "$rave" show "$work/set" --vlm "$work/b1" -j 1) == 0 ]] || fail "vlm -j 1: $(cat "$work/err")"
[[ $(run "$rave" show "$work/set" --vlm "$work/b2" -j 2) == 0 ]] || fail "vlm -j 2: $(cat "$work/err")"
diff -r "$work/b1" "$work/b2" >/dev/null || fail "-j 1 and -j 2 wrote different benchmarks"
[[ $(run "$rave" show "$work/set" --vlm "$work/p1" --panels -j 1) == 0 ]] || fail "vlm --panels: $(cat "$work/err")"
[[ $(run "$rave" show "$work/set" --vlm "$work/p2" --panels -j 2) == 0 ]] || fail "vlm --panels -j 2"
diff -r "$work/p1" "$work/p2" >/dev/null || fail "-j 1 and -j 2 wrote different panels"
[[ $(run "$rave" show "$work/set" --vlm "$work/a" --panels --with-answer -j 2) == 0 ]] || fail "vlm --with-answer"

# Every field, every file named, PNGs of the right sizes; answers only with --with-answer, labels 1..8.
"$py" - "$work" <<'EOF' || fail "vlm.jsonl fields"
import json, os, struct, sys
work = sys.argv[1]
def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])
def lines(folder):
    return [json.loads(l) for l in open(os.path.join(work, folder, "vlm.jsonl"))]
configs = sorted(os.listdir(os.path.join(work, "set")))
configs.remove("rave.json")
for folder in ("b1", "p1", "a"):
    rows = lines(folder)
    assert len(rows) == 21, (folder, len(rows))
    for j in rows:
        keys = ["id", "configuration", "split", "grid", "sheet", "sheet_prompt"]
        if folder != "b1":
            keys += ["panels", "panels_prompt"]
        if folder == "a":
            keys += ["answer", "target"]
        assert list(j) == keys, (folder, list(j))
        assert j["configuration"] in configs and j["id"].startswith(j["configuration"] + "/"), j["id"]
        assert j["split"] == j["id"].rsplit("_", 1)[1] and j["grid"] == 3, j
        assert j["sheet"] == j["id"] + ".png" and png_size(os.path.join(work, folder, j["sheet"])) == (700, 944)
        assert "3x3 matrix" in j["sheet_prompt"] and "labelled 1 to 8" in j["sheet_prompt"]
        assert "Answer with the number of the candidate (1-8) only." in j["sheet_prompt"]
        if folder != "b1":
            assert len(j["panels"]) == 16 and j["panels"][8] == j["id"] + "/candidate-1.png", j["panels"]
            assert "Images 9 to 16 are the candidates 1 to 8" in j["panels_prompt"]
            for p in j["panels"]:
                assert png_size(os.path.join(work, folder, p)) == (160, 160), p
    if folder == "a":
        for j in rows:
            k = j["id"].split("/")[1].split("_")[1]
            npz = os.path.join(work, "set", j["id"] + ".npz")
            import numpy as np
            target = int(np.load(npz)["target"])
            assert j["target"] == target and j["answer"] == target + 1, (j, target)
for folder in ("b1", "p1"):
    text = open(os.path.join(work, folder, "vlm.jsonl")).read()
    assert "answer" not in text and "target" not in text, folder
EOF
# The answer is never drawn: the sheets and panels with and without --with-answer are the same bytes.
diff -r -x vlm.jsonl "$work/p1" "$work/a" >/dev/null || fail "--with-answer changed an image"
cmp -s "$work/p1/vlm.jsonl" "$work/a/vlm.jsonl" && fail "--with-answer changed no line"
[[ $(find "$work/b1" -type f | wc -l) == 22 && $(find "$work/p1" -type f | wc -l) == $((21 * 17 + 1)) ]] ||
  fail "unexpected file counts: $(find "$work/b1" -type f | wc -l), $(find "$work/p1" -type f | wc -l)"

# rave show FILE: framed by default, answer-free with --no-answer; an npz, its XML with the npz and
# its XML alone give the same answer-free sheet.
xml="$work/set/center_single/RAVEN_0_train.xml"
[[ $(run "$rave" show "$xml" -o "$work/framed.png") == 0 ]] || fail "show: $(cat "$work/err")"
[[ $(run "$rave" show "$xml" -o "$work/free.png" --no-answer) == 0 ]] || fail "show --no-answer"
[[ $(run "$rave" show "${xml%.xml}.npz" -o "$work/free-npz.png" --no-answer) == 0 ]] || fail "show npz --no-answer"
mkdir -p "$work/alone" && cp "$xml" "$work/alone/"
[[ $(run "$rave" show "$work/alone/RAVEN_0_train.xml" -o "$work/alone.png") == 0 ]] || fail "show xml alone"
cmp -s "$work/framed.png" "$work/free.png" && fail "show drew no answer frame"
cmp -s "$work/free.png" "$work/free-npz.png" || fail "show --no-answer: npz and xml differ"
cmp -s "$work/free.png" "$work/alone.png" || fail "show --no-answer drew something of the answer"

# Usage errors are exit 2: a folder without --vlm, -o with --vlm, --panels without --vlm, a folder
# that is not a benchmark.
[[ $(run "$rave" show "$work/set" -o "$work/x.png") == 2 ]] || fail "a folder without --vlm"
[[ $(run "$rave" show "$work/set" --vlm "$work/x" -o "$work/x.png") == 2 ]] || fail "-o with --vlm"
[[ $(run "$rave" show "$xml" -o "$work/x.png" --panels) == 2 ]] || fail "--panels without --vlm"
[[ $(run "$rave" show "$work/set" --vlm "$work/set") == 2 ]] || fail "--vlm onto the problem folder"
[[ ! -e "$work/x" && ! -e "$work/x.png" ]] || fail "a usage error wrote something"

# Bad input: one line naming the file, exit 1, the benchmark folder as it was, nothing left beside it.
cp -r "$work/set" "$work/bad"
head -c 1000 "$work/set/distribute_four/RAVEN_1_train.npz" >"$work/bad/distribute_four/RAVEN_1_train.npz"
cp -r "$work/b1" "$work/keep"
[[ $(run "$rave" show "$work/bad" --vlm "$work/b1" --panels -j 2) == 1 ]] || fail "truncated npz: not exit 1"
one_line_error "truncated npz" "distribute_four/RAVEN_1_train.npz"
diff -r "$work/keep" "$work/b1" >/dev/null || fail "a failed export changed the benchmark folder"
[[ -z $(find "$work" -maxdepth 1 -name '.*tmp*') ]] || fail "a failed export left its temporary folder"
cp "$work/set/distribute_four/RAVEN_1_train.npz" "$work/bad/distribute_four/"
printf '<Data><Panels>' >"$work/bad/center_single/RAVEN_2_test.xml"
[[ $(run "$rave" show "$work/bad" --vlm "$work/c") == 1 ]] || fail "malformed xml: not exit 1"
one_line_error "malformed xml" "center_single/RAVEN_2_test.xml"
[[ ! -e "$work/c" ]] || fail "a failed export created its folder"

# More than 5 values per attribute: refused, exit 1, one line naming the file and why.
[[ $(run "$rave" generate -n 1 -o "$work/v100" -c center --values 100 --symbolic-only) == 0 ]] ||
  fail "generate --values 100: $(cat "$work/err")"
[[ $(run "$rave" show "$work/v100" --vlm "$work/v") == 1 ]] || fail "values 100 --vlm: not exit 1"
one_line_error "values 100 --vlm" "center_single/RAVEN_0_train.xml: has 100 levels per attribute"
[[ $(run "$rave" show "$work/v100/center_single/RAVEN_0_train.xml" -o "$work/v.png") == 1 ]] ||
  fail "values 100 show: not exit 1"
one_line_error "values 100 show" "RAVEN_0_train.xml: has 100 levels per attribute"
[[ ! -e "$work/v" && ! -e "$work/v.png" ]] || fail "a refused problem was drawn"

# Replies as a vision-language model writes them, in the labels 1..8 the prompts ask for, scored
# against the set with no flag: a perfect model's (plain, markdown, reasoning) 100 %, a refuser's 0 %
# with every reply counted as naming no candidate; read as IBM's 0-based index instead, not 100 %.
"$py" - "$work" <<'EOF' || fail "replies files"
import json, os, sys
work = sys.argv[1]
rows = [json.loads(l) for l in open(os.path.join(work, "a", "vlm.jsonl"))]
forms = ["{}", "The answer is **{}**.", "Row 1 grows by one step a panel; so does row 3: candidate {}."]
with open(os.path.join(work, "perfect.jsonl"), "w") as f:
    for i, j in enumerate(rows):
        f.write(json.dumps({"id": j["id"], "text": forms[i % 3].format(j["answer"])}) + "\n")
with open(os.path.join(work, "refuser.jsonl"), "w") as f:
    for j in rows:
        f.write(json.dumps({"id": j["id"], "text": "I'm sorry, I can't see the image."}) + "\n")
EOF
score_field() {  # $1: predictions, $2: field of the --json report, then more flags
  local file=$1 field=$2
  shift 2
  "$rave" score "$file" -d "$work/set" --json "$@" 2>/dev/null |
    "$py" -c "import json, sys; print(json.load(sys.stdin)['$field'])"
}
[[ $(score_field "$work/perfect.jsonl" accuracy) == 100.0 ]] || fail "perfect replies: not 100 %"
[[ $(score_field "$work/perfect.jsonl" unreadable) == 0 ]] || fail "perfect replies: unreadable ones"
[[ $(score_field "$work/refuser.jsonl" accuracy) == 0.0 ]] || fail "refusals: not 0 %"
[[ $(score_field "$work/refuser.jsonl" unreadable) == 21 ]] || fail "refusals: not all unreadable"
[[ $(score_field "$work/perfect.jsonl" accuracy --text-answer index) != 100.0 ]] ||
  fail "labels read as 0-based indices still score 100 %"
"$rave" score "$work/perfect.jsonl" -d "$work/set" >"$work/table" 2>&1 || fail "score table"
grep -q "^replies of perfect: 21 read as labels 1..8 (--text-answer label), 0 named no candidate" \
  "$work/table" || fail "the table does not say how replies were read: $(cat "$work/table")"
[[ $(run "$rave" score "$work/perfect.jsonl" -d "$work/set" --text-answer roman) == 2 ]] ||
  fail "--text-answer roman: not a usage error"

# Candidates shuffled by a recorded seed (position bias controlled): the lines say so, the answers
# move, and replies to the shuffled sheets score 100 % when rave score is told the seed (by the
# flag, or by the lines' own "answers_shuffled"), not without it.
[[ $(run "$rave" show "$work/set" --vlm "$work/s9" --with-answer --answers-shuffled 9 -j 2) == 0 ]] ||
  fail "vlm --answers-shuffled: $(cat "$work/err")"
"$py" - "$work" <<'EOF' || fail "shuffled benchmark"
import json, os, sys
work = sys.argv[1]
plain = [json.loads(l) for l in open(os.path.join(work, "a", "vlm.jsonl"))]
shuffled = [json.loads(l) for l in open(os.path.join(work, "s9", "vlm.jsonl"))]
assert all(j["answers_shuffled"] == 9 for j in shuffled)
assert any(p["answer"] != s["answer"] for p, s in zip(plain, shuffled)), "no answer moved"
with open(os.path.join(work, "shuffled-replies.jsonl"), "w") as f:
    for j in shuffled:
        f.write(json.dumps({"id": j["id"], "text": "Answer: %d" % j["answer"]}) + "\n")
with open(os.path.join(work, "shuffled-lines.jsonl"), "w") as f:
    for j in shuffled:
        f.write(json.dumps({"id": j["id"], "text": str(j["answer"]), "answers_shuffled": 9}) + "\n")
EOF
cmp -s "$work/a/center_single/RAVEN_0_train.png" "$work/s9/center_single/RAVEN_0_train.png" &&
  cmp -s "$work/a/center_single/RAVEN_1_train.png" "$work/s9/center_single/RAVEN_1_train.png" &&
  fail "shuffled sheets are the same images"
[[ $(score_field "$work/shuffled-replies.jsonl" accuracy --answers-shuffled 9) == 100.0 ]] ||
  fail "shuffled replies with the seed: not 100 %"
[[ $(score_field "$work/shuffled-lines.jsonl" accuracy) == 100.0 ]] || fail "lines naming their seed: not 100 %"
[[ $(score_field "$work/shuffled-replies.jsonl" accuracy) != 100.0 ]] || fail "shuffled replies without the seed: 100 %"
[[ $(run "$rave" show "$xml" -o "$work/x.png" --answers-shuffled 3) == 2 ]] || fail "--answers-shuffled without --vlm"

finish "VLM CLI"
