#!/usr/bin/env bash
# CLI contract of `rave export` and `rave score`: the export's lines and flags, the solver's own
# answers scoring 100%, the context-blind baseline (scripts/baseline_predictions.py, reading the json
# export) scoring exactly the rate `rave check` prints, seeds summarized with the t interval a hand
# computation gives, shuffled answers mapped back, the single-candidate protocol, the table, CSV,
# JSON and chart outputs, and one-line errors with exit code 1 on bad input.
# Usage: cli_evaluation_test.sh RAVE_BINARY SOURCE_DIR
set -u
# shellcheck source=../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"
src="$2"
field() { "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, {"d": d}))' "$@"; }

[[ $(run "$rave" generate -n 10 -o "$work/set" -a raven -s 7 -j 2) == 0 ]] || fail "generate: $(cat "$work/err")"

# Export: one line per problem, the documented fields, flags.
[[ $(run "$rave" export "$work/set" -o "$work/text.jsonl") == 0 ]] || fail "export text: $(cat "$work/err")"
[[ $(wc -l <"$work/text.jsonl") == 70 ]] || fail "export: expected 70 lines"
"$py" -c '
import json, sys
for line in open(sys.argv[1]):
    j = json.loads(line)
    assert list(j)[:5] == ["id", "configuration", "split", "answer", "verdict"], list(j)
    answers = "\n".join(f"Answer #{k}: {c}" for k, c in enumerate(j["choices"]))
    assert len(j["choices"]) == 8 and j["style"] == "ibm-2025", j
    assert j["system"] == "Complete the Raven'"'"'s progressive matrix:", j["system"]
    assert j["prompt"] == "Only return the missing numbers!\n" + j["context"] + "\nAnswer set:\n" + answers
' "$work/text.jsonl" || fail "export text fields"
[[ $(run "$rave" export "$work/set" --style ibm-2024 -o "$work/text24.jsonl") == 0 ]] || fail "export ibm-2024: $(cat "$work/err")"
[[ $(run "$rave" export "$work/set" --style lm-raven --rows-shown 1 -o "$work/lm.jsonl") == 0 ]] || fail "export lm-raven: $(cat "$work/err")"
"$py" -c '
import json, sys
for a, b in zip(open(sys.argv[1]), open(sys.argv[2])):
    old, lm = json.loads(a), json.loads(b)
    assert old["prompt"].startswith("Only return the missing numbers!\n" + old["context"] + "\nSelect the correct")
    assert old["prompt"].endswith("\nCorrect Answer #")
    assert "prompt" not in lm and len(lm["choice_prompts"]) == 8 and not lm["context"].startswith("row")
    assert lm["choice_prompts"][3] == "let'"'"'s think step by step. " + lm["context"] + lm["choices"][3]
' "$work/text24.jsonl" "$work/lm.jsonl" || fail "export styles ibm-2024 and lm-raven"
[[ $(run "$rave" export "$work/set" --style ibm-2024 --no-offsets) == 2 ]] || fail "ibm-2024 --no-offsets: exit code"
grep -q -- "--no-offsets" "$work/err" || fail "ibm-2024 --no-offsets not named: $(cat "$work/err")"
[[ $(run "$rave" export "$work/set" --style lm-raven --rows-shown 4) == 2 ]] || fail "lm-raven 4 rows: exit code"
[[ $(run "$rave" export "$work/set" -f text-disentangled --no-answer --drop-ambiguous -o "$work/dis.jsonl") == 0 ]] ||
  fail "export disentangled: $(cat "$work/err")"
grep -q '"answer"' "$work/dis.jsonl" && fail "--no-answer left an answer"
grep -q '"verdict":"ambiguous"' "$work/dis.jsonl" && fail "--drop-ambiguous left an ambiguous problem"
grep -q '"attribute":"number"' "$work/dis.jsonl" || fail "disentangled: no number sub-prompt"
[[ $(run "$rave" export "$work/set" -f json -o "$work/set.jsonl") == 0 ]] || fail "export json"
# IBM's Solver_pred (--classmode pred): no answer set, "(" after the entangled and master queries;
# on center_single (where IBM's code runs it) a model that writes the answer's numbers scores 100%
# read as IBM's Solver_pred reads them, with the export as the key (its "choices" are what the
# replies are matched to).
[[ $(run "$rave" export "$work/set/center_single" --classmode pred -o "$work/pred.jsonl") == 0 ]] || fail "export pred: $(cat "$work/err")"
[[ $(run "$rave" export "$work/set/center_single" -f text-disentangled --classmode pred -o "$work/predd.jsonl") == 0 ]] ||
  fail "export pred disentangled: $(cat "$work/err")"
"$py" -c '
import json, sys
replies, attrs, master, samples = (open(f, "w") for f in sys.argv[3:7])
for line in open(sys.argv[1]):
    j = json.loads(line)
    assert j["classmode"] == "pred" and j["prompt"] == "Only return the missing numbers!\n" + j["context"] + "(", j
    reply = j["choices"][j["answer"]][1:]  # what follows the query'"'"'s "("
    print(json.dumps({"id": j["id"], "text": [reply, "I cannot tell"]}), file=replies)
for line in open(sys.argv[2]):
    j = json.loads(line)
    for p in j["prompts"]:
        assert p["prompt"] == "Only return the missing numbers!\n" + p["context"] + ("(" if p["attribute"] == "master" else ""), p
    a = {p["attribute"]: int(p["choices"][j["answer"]]) for p in j["prompts"] if p["attribute"] != "master"}
    assert j["choices"] == j["prompts"][-1]["choices"], j  # the master branch'"'"'s, IBM'"'"'s _split returns them
    print(json.dumps({"id": j["id"], "attributes": a}), file=attrs)
    print(json.dumps({"id": j["id"], "text": [j["choices"][j["answer"]][1:]]}), file=master)
    # Each branch'"'"'s replies as IBM'"'"'s nreturn samples, reasoning with other numbers before
    # its answer queue: IBM reads (and rave votes) the first number after "Answer:".
    s = {b: [f"Rows 99 and 98. Answer: {v}", f"Row 97. Answer: {v}", "no idea"] for b, v in a.items()}
    print(json.dumps({"id": j["id"], "attributes": s}), file=samples)
' "$work/pred.jsonl" "$work/predd.jsonl" "$work/pred-replies.jsonl" "$work/pred-attrs.jsonl" \
  "$work/pred-master.jsonl" "$work/pred-samples.jsonl" || fail "export pred fields"
[[ $(run "$rave" score "$work/pred-replies.jsonl" --data "$work/pred.jsonl" --text-answer values --json) == 0 ]] ||
  fail "score pred replies: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"], d["scored"]') == "(100.0, 10)" ]] || fail "pred replies: $(head -c 300 "$work/out")"
[[ $(run "$rave" score "$work/pred-attrs.jsonl" --data "$work/predd.jsonl" --json) == 0 ]] ||
  fail "score pred attributes: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"], d["scored"]') == "(100.0, 10)" ]] || fail "pred attributes: $(head -c 300 "$work/out")"
[[ $(run "$rave" score "$work/pred-master.jsonl" --data "$work/predd.jsonl" --text-answer values --json) == 0 ]] ||
  fail "score pred master: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"], d["scored"]') == "(100.0, 10)" ]] || fail "pred master: $(head -c 300 "$work/out")"
[[ $(run "$rave" score "$work/pred-samples.jsonl" --data "$work/predd.jsonl" --answer-queue "Answer:" --json) == 0 ]] ||
  fail "score pred attribute samples: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"]') == 100.0 ]] || fail "attribute samples after the queue: $(head -c 300 "$work/out")"
[[ $(run "$rave" score "$work/pred-samples.jsonl" --data "$work/predd.jsonl" --json) == 0 ]] ||
  fail "score pred attribute samples, no queue: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"] < 50') == True ]] || fail "attribute samples without the queue: $(head -c 300 "$work/out")"
[[ $(run "$rave" score "$work/pred-replies.jsonl" --data "$work/pred.jsonl" --nattr 0) == 2 ]] || fail "--nattr 0: exit code"
[[ $(run "$rave" score "$work/pred-replies.jsonl" --data "$work/pred.jsonl" --nattr all --json) == 0 ]] ||
  fail "--nattr all: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"]') == 100.0 ]] || fail "--nattr all: $(head -c 300 "$work/out")"
# "Answer #k" replies read by the reply rule (rave.gym's text reward): right with reasoning around
# them; a candidate's values are no index (IBM's index would read their first number).
"$py" -c '
import json, sys
with open(sys.argv[2], "w") as o, open(sys.argv[3], "w") as v:
    for line in open(sys.argv[1]):
        j = json.loads(line)
        print(json.dumps({"id": j["id"], "text": f"Row 1 keeps its shape, so the answer is Answer #{j['"'"'answer'"'"']}."}), file=o)
        print(json.dumps({"id": j["id"], "text": j["choices"][j["answer"]]}), file=v)
' "$work/text.jsonl" "$work/index-replies.jsonl" "$work/value-replies.jsonl" || fail "answer-index replies"
[[ $(run "$rave" score "$work/index-replies.jsonl" --data "$work/text.jsonl" --text-answer answer-index --json) == 0 ]] ||
  fail "score answer-index: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"], d["unreadable"]') == "(100.0, 0)" ]] || fail "answer-index: $(head -c 300 "$work/out")"
[[ $(run "$rave" score "$work/value-replies.jsonl" --data "$work/text.jsonl" --text-answer answer-index --json) == 0 ]] ||
  fail "score answer-index values: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"], d["unreadable"]') == "(0.0, 70)" ]] || fail "answer-index values: $(head -c 300 "$work/out")"
# A pred export key reads replies as the panel's values with no flag (its lines say classmode pred).
[[ $(run "$rave" score "$work/pred-replies.jsonl" --data "$work/pred.jsonl" --json) == 0 ]] ||
  fail "score pred replies, no flag: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"]') == 100.0 ]] || fail "pred replies, no flag: $(head -c 300 "$work/out")"
[[ $(run "$rave" export "$work/set" --classmode pred --style lm-raven) == 2 ]] || fail "lm-raven pred: exit code"
[[ $(run "$rave" export "$work/set" --classmode pred --uncertainty 0.5) == 2 ]] || fail "pred uncertainty: exit code"
grep -q -- "--uncertainty" "$work/err" || fail "pred --uncertainty not named: $(cat "$work/err")"
[[ $(run "$rave" export "$work/set" --classmode generative) == 2 ]] || fail "unknown classmode: exit code"
[[ $(run "$rave" export "$work/set" -f yaml) == 2 ]] || fail "unknown format is not a usage error"

# The solver's own answers score 100%, on every column.
"$rave" solve "$work/set" --json >"$work/solver.jsonl" 2>/dev/null
[[ $(run "$rave" score "$work/solver.jsonl" --data "$work/set" --json) == 0 ]] || fail "score solver: $(cat "$work/err")"
cp "$work/out" "$work/solver.json"
[[ $(field "$work/solver.json" 'd["accuracy"]') == 100.0 ]] || fail "solver accuracy: $(head -c 300 "$work/solver.json")"
[[ $(field "$work/solver.json" 'd["scored"], d["missing"], d["unknown"]') == "(70, 0, 0)" ]] || fail "solver counts"

# The context-blind baseline scores the rate rave check prints.
"$py" "$src/scripts/baseline_predictions.py" "$work/set.jsonl" --player context-blind >"$work/blind.jsonl" ||
  fail "baseline_predictions.py"
[[ $(run "$rave" score "$work/blind.jsonl" --data "$work/set" --json) == 0 ]] || fail "score blind: $(cat "$work/err")"
blind=$(field "$work/out" '"%.2f" % d["accuracy"]')
reference=$(field "$work/out" '"%.2f" % d["rows"][-1]["accuracy"]["mean"]')
"$rave" check "$work/set" >"$work/check.out" 2>/dev/null
checked=$(awk '/^context-blind acc %/ {print $4}' "$work/check.out")
[[ -n $checked && $blind == "$checked" && $reference == "$checked" ]] ||
  fail "context-blind: score $blind, reference row $reference, rave check $checked"

# Seeds: three random files of one label; the interval is mean +- t(0.975, 2) * sd / sqrt(3).
for s in 1 2 3; do
  "$py" "$src/scripts/baseline_predictions.py" "$work/set.jsonl" --player random --seed $s >"$work/random-seed$s.jsonl"
done
[[ $(run "$rave" score "$work"/random-seed{1,2,3}.jsonl --data "$work/set" --seeds --json --csv "$work/r.csv" \
      --chart "$work/r.png") == 0 ]] || fail "score --seeds: $(cat "$work/err")"
"$py" -c '
import json, math, sys
d = json.load(open(sys.argv[1]))
row = d["rows"][0]
assert row["seeds"] == 3 and row["label"] == "random", row
files = [[json.loads(l) for l in open(f)] for f in sys.argv[2:5]]
key = {json.loads(l)["id"]: json.loads(l)["answer"] for l in open(sys.argv[5])}
acc = [100.0 * sum(p["answer"] == key[p["id"]] for p in f) / len(f) for f in files]
mean = sum(acc) / 3
sd = math.sqrt(sum((a - mean) ** 2 for a in acc) / 2)
half = 4.302652729911275 * sd / math.sqrt(3)
got = row["accuracy"]
assert abs(got["mean"] - mean) < 1e-9 and abs(got["sd"] - sd) < 1e-9, (got, mean, sd)
assert abs(got["ci95"][0] - (mean - half)) < 1e-6 and abs(got["ci95"][1] - (mean + half)) < 1e-6, (got, half)
' "$work/out" "$work"/random-seed{1,2,3}.jsonl "$work/text.jsonl" || fail "seeds interval differs from the hand computation"
head -1 "$work/r.csv" | grep -q "^model,note,seeds,Avg,Avg_sd,Avg_ci95_low,Avg_ci95_high," || fail "csv header"
[[ $(head -c 4 "$work/r.png" | tail -c 3) == PNG ]] || fail "chart is not a PNG"
[[ $(run "$rave" score "$work"/random-seed{1,2,3}.jsonl --data "$work/set" --seeds) == 0 ]] || fail "score table"
grep -q "^| random | [0-9.]* \[[0-9.]*, [0-9.]*\] |" "$work/out" || fail "seeds table cell: $(cat "$work/out")"

# Shuffled answers are mapped back; the single-candidate protocol takes the top score.
"$rave" export "$work/set" --answers-shuffled 5 -o "$work/shuffled.jsonl" 2>/dev/null
"$py" -c '
import json, sys
for l in open(sys.argv[1]):
    print(json.dumps({"id": json.loads(l)["id"], "answer": json.loads(l)["answer"]}))' "$work/shuffled.jsonl" >"$work/truth.jsonl"
[[ $(run "$rave" score "$work/truth.jsonl" --data "$work/set" --answers-shuffled 5 --json) == 0 ]] || fail "shuffled"
[[ $(field "$work/out" 'd["accuracy"]') == 100.0 ]] || fail "shuffled answers were not mapped back"
"$py" -c '
import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    print(json.dumps({"id": j["id"], "scores": [1.0 if k == j["answer"] else 0.0 for k in range(8)]}))' "$work/text.jsonl" >"$work/scores.jsonl"
[[ $(run "$rave" score "$work/scores.jsonl" --data "$work/set" --protocol single-candidate --json) == 0 ]] ||
  fail "single-candidate: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"], d["protocol"]') == "(100.0, 'single-candidate')" ]] || fail "single-candidate score"

# A line's own "answers_shuffled" is undone without a flag; a flag that disagrees names the line.
# (The export lines get the field by hand here, as a harness copying the export's fields would.)
"$py" -c '
import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l); j["answers_shuffled"] = 5
    print(json.dumps(j))' "$work/shuffled.jsonl" >"$work/shuffled-field.jsonl"
"$py" -c '
import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    print(json.dumps({"id": j["id"], "answer": j["answer"], "answers_shuffled": j["answers_shuffled"]}))' \
  "$work/shuffled-field.jsonl" >"$work/truth-field.jsonl"
[[ $(run "$rave" score "$work/truth-field.jsonl" --data "$work/set" --json) == 0 ]] || fail "line seed: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"]') == 100.0 ]] || fail "a line's answers_shuffled was not undone"
[[ $(run "$rave" score "$work/truth-field.jsonl" --data "$work/set" --answers-shuffled 6) == 1 ]] || fail "seed conflict: exit code"
grep -q 'truth-field.jsonl:line 1: "answers_shuffled": 5, but the shuffle seed given is 6' "$work/err" ||
  fail "seed conflict: $(cat "$work/err")"
# An export file is the key: answers in its shown order, no flag; the json form keeps the reference rows.
[[ $(run "$rave" score "$work/truth.jsonl" --data "$work/shuffled-field.jsonl" --json) == 0 ]] ||
  fail "export key: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"], d["set_items"], len(d["rows"])') == "(100.0, 70, 1)" ]] ||
  fail "export key: $(head -c 300 "$work/out")"
[[ $(run "$rave" score "$work/solver.jsonl" --data "$work/set.jsonl" --json) == 0 ]] || fail "json export key: $(cat "$work/err")"
[[ $(field "$work/out" 'd["accuracy"], [r["label"] for r in d["rows"]][1:]') == "(100.0, ['Solver', 'Context-blind'])" ]] ||
  fail "json export key: $(head -c 300 "$work/out")"
# --no-references: no reference rows, and no note blaming the key for lacking them.
for key in "$work/set" "$work/set.jsonl"; do
  [[ $(run "$rave" score "$work/solver.jsonl" --data "$key" --no-references) == 0 ]] || fail "--no-references: $(cat "$work/err")"
  grep -q "text export\|^| Solver " "$work/out" && fail "--no-references on $key: $(cat "$work/out")"
done

# Which problems count: the groups (default), the answered ones, a named subset.
head -3 "$work/solver.jsonl" >"$work/three.jsonl"
[[ $(run "$rave" score "$work/three.jsonl" --data "$work/set" --subset answered --json) == 0 ]] || fail "answered"
[[ $(field "$work/out" 'd["accuracy"], d["evaluated"], d["set_items"], d["selection"]') == "(100.0, 3, 70, 'answered')" ]] ||
  fail "--subset answered: $(head -c 300 "$work/out")"
echo '[8, 9, 12345]' >"$work/subset.json"
[[ $(run "$rave" score "$work/solver.jsonl" --data "$work/set" --subset "$work/subset.json") == 0 ]] || fail "subset"
grep -q "^14 of the set's 70 problems scored (subset .*subset.json)" "$work/out" || fail "subset line: $(cat "$work/out")"
grep -q "1 of its 3 entries name no problem" "$work/err" || fail "subset absent: $(cat "$work/err")"
[[ $(run "$rave" score "$work/solver.jsonl" --data "$work/set" --subset "$work/nothing.json") == 1 ]] || fail "missing subset file"

# Two models on the same problems: the solver (all right) against a file that is all wrong gives a
# difference of +100 points, every problem discordant, McNemar p = 2^-69; a file against itself 0,
# p = 1. --paired with one file is a usage error.
"$py" -c 'import json, sys
for l in open(sys.argv[1]):
    j = json.loads(l)
    print(json.dumps({"id": j["file"], "answer": (j["answer"] + 1) % 8}))' "$work/solver.jsonl" >"$work/wrong.jsonl"
[[ $(run "$rave" score "$work/solver.jsonl" "$work/wrong.jsonl" --data "$work/set" --paired --json) == 0 ]] ||
  fail "score --paired: $(cat "$work/err")"
[[ $(field "$work/out" 'd["paired"]["difference"], d["paired"]["only_a"], d["paired"]["problems"]') == "(100.0, 70.0, 70)" ]] ||
  fail "paired solver vs wrong: $(tail -c 400 "$work/out")"
[[ $(field "$work/out" 'abs(d["paired"]["mcnemar_p"] / 2.0 ** -69 - 1) < 1e-9') == True ]] || fail "paired: McNemar p"
[[ $(run "$rave" score "a=$work/solver.jsonl" "b=$work/solver.jsonl" --data "$work/set" --paired) == 0 ]] ||
  fail "score --paired same: $(cat "$work/err")"
grep -q "^paired: a - b = +0.00 points \[95% paired bootstrap 0.00, 0.00\] on 70 problems; McNemar exact p = 1 " "$work/out" ||
  fail "paired line: $(cat "$work/out")"
[[ $(run "$rave" score "$work/solver.jsonl" --data "$work/set" --paired) == 2 ]] || fail "--paired with one file"
# By rule: the solver is right under every rule, the all-wrong file under none; every problem is
# counted under each rule it has (a Center problem has four).
[[ $(run "$rave" score "$work/solver.jsonl" "$work/wrong.jsonl" --data "$work/set" --by-rule --json) == 0 ]] ||
  fail "score --by-rule: $(cat "$work/err")"
[[ $(field "$work/out" 'sorted({v["accuracy"]["solver"] for v in d["by_rule"].values()}), sorted({v["accuracy"]["wrong"] for v in d["by_rule"].values()})') == "([100.0], [0.0])" ]] ||
  fail "by rule accuracies: $(tail -c 600 "$work/out")"
[[ $(field "$work/out" 'len(d["by_rule"]) >= 8 and all(v["problems"] <= 70 for v in d["by_rule"].values())') == True ]] ||
  fail "by rule rules: $(tail -c 600 "$work/out")"
[[ $(run "$rave" score "$work/solver.jsonl" --data "$work/set" --by-rule) == 0 ]] || fail "score --by-rule table"
grep -q "^| Type Distribute_Three | [0-9]* | 100.00 \[" "$work/out" || fail "by-rule table: $(cat "$work/out")"

# Missing and unknown ids are reported; bad input is one line naming the file and line, exit 1.
head -3 "$work/solver.jsonl" >"$work/part.jsonl"
echo '{"id": "center_single/RAVEN_99_test", "answer": 1}' >>"$work/part.jsonl"
[[ $(run "$rave" score "$work/part.jsonl" --data "$work/set" --json) == 0 ]] || fail "partial file"
[[ $(field "$work/out" 'd["scored"], d["unknown"]') == "(3, 1)" ]] || fail "partial counts: $(head -c 200 "$work/out")"
grep -q "center_single/RAVEN_99_test" "$work/err" || fail "unknown id not named: $(cat "$work/err")"
printf 'not,a\npredictions,file\n' >"$work/bad.csv"
[[ $(run "$rave" score "$work/bad.csv" --data "$work/set") == 1 ]] || fail "bad file: exit code"
[[ $(wc -l <"$work/err") == 1 ]] && grep -q "bad.csv:line 1:" "$work/err" || fail "bad file: $(cat "$work/err")"
sed -n 1,2p "$work/solver.jsonl" >"$work/dup.jsonl"
sed -n 1p "$work/solver.jsonl" >>"$work/dup.jsonl"
[[ $(run "$rave" score "$work/dup.jsonl" --data "$work/set") == 1 ]] || fail "duplicate: exit code"
grep -q "dup.jsonl:line 3: a second answer for .* (the first is on line 1)" "$work/err" || fail "duplicate: $(cat "$work/err")"
echo '{"id": "center_single/RAVEN_0_train", "answer": 8}' >"$work/range.jsonl"
[[ $(run "$rave" score "$work/range.jsonl" --data "$work/set") == 1 ]] || fail "answer 8: exit code"
grep -q "range.jsonl:line 1: answer 8 is outside 0..7" "$work/err" || fail "answer 8: $(cat "$work/err")"
mkdir -p "$work/empty"
[[ $(run "$rave" score "$work/solver.jsonl" --data "$work/empty") == 1 ]] || fail "empty set: exit code"
grep -q "empty: no problems here" "$work/err" || fail "empty set: $(cat "$work/err")"
[[ $(run "$rave" export "$work/empty") == 1 ]] || fail "export of an empty folder: exit code"

# Variants (docs/variants.md): a 4 x 4 set with confounders exports its variant, 15 context panels
# and every verdict; IBM's uncertain values with a seed per line; an uncertainty outside [0, 1] is
# one line, exit 2.
[[ $(run "$rave" generate -n 3 -o "$work/grid4" -c center,2x2 --grid 4 --confounders 1 --symbolic-only) == 0 ]] ||
  fail "generate grid 4: $(cat "$work/err")"
[[ $(run "$rave" export "$work/grid4" -f json -o "$work/grid4.jsonl") == 0 ]] ||
  fail "export grid 4: $(cat "$work/err")"
[[ $(run "$rave" export "$work/grid4/center_single" --no-offsets --uncertainty 0.8 --rows-shown all \
       -o "$work/grid4u.jsonl") == 0 ]] || fail "export grid 4 uncertain: $(cat "$work/err")"
"$py" -c '
import json, re, sys
for line in open(sys.argv[1]):
    j = json.loads(line)
    assert j["variant"]["grid"] == 4 and len(j["context"]) == 15 and j["verdict"] in ("unique", "ambiguous"), j["id"]
    e = j["context"][0][0]["entities"][0]
    assert len(e["confounders"]) == 1, e
for line in open(sys.argv[2]):
    j = json.loads(line)
    assert isinstance(j["uncertainty_seed"], int) and j["context"].count("; row ") == 3, j["context"][:80]
    value = r"<\d\.\d\d::[-\d.]+,\d\.\d\d::[-\d.]+,\d\.\d\d::[-\d.]+>"
    assert re.fullmatch(r"\((" + value + ",){3}" + value + r"\)", j["choices"][0]), j["choices"][0]
' "$work/grid4.jsonl" "$work/grid4u.jsonl" || fail "export of a 4 x 4 set"
[[ $(run "$rave" export "$work/grid4" --uncertainty 1.5) == 2 ]] || fail "--uncertainty 1.5: exit code"
grep -q -- "--uncertainty" "$work/err" || fail "--uncertainty 1.5 not named: $(cat "$work/err")"

# Hostile predictions (issue 28's D6-D8): one line naming the file and line, exit 1 or 2.
id=center_single/RAVEN_0_train
bad() {  # bad CODE PHRASE LINE [FLAGS]: a one-line predictions file refused as told
  printf '%s\n' "$3" >"$work/bad.jsonl"
  [[ $(run "$rave" score "$work/bad.jsonl" --data "$work/set" "${@:4}") == "$1" ]] || fail "bad predictions $3: exit code"
  grep -q -- "$2" "$work/err" && [[ $(wc -l <"$work/err") == 1 ]] || fail "bad predictions $3: $(cat "$work/err")"
}
bad 1 "bad.jsonl:line 1: a number too large to read" "{\"id\":\"$id\",\"scores\":[1e400,1,2,3,4,5,6,7]}"
bad 1 "answer 9223372036854775808 is not a candidate index" "{\"id\":\"$id\",\"answer\":9223372036854775808}"
bad 1 '"scores" is empty' "{\"id\":\"$id\",\"scores\":[]}"
bad 1 "none of its 1 ids names a problem of" '{"id":"nope/RAVEN_0_train","answer":1}'
bad 2 "--answers-shuffled must be a whole number" "{\"id\":\"$id\",\"answer\":1}" --answers-shuffled -1

# The hub's parquet (python -m rave export-hf behind rave export -f hf).
[[ $(run "$rave" export "$work/set" -f hf -o "$work/hub") == 0 ]] || fail "export -f hf: $(cat "$work/err")"
[[ -s "$work/hub/README.md" ]] && compgen -G "$work/hub/center_single/*.parquet" >/dev/null || fail "export -f hf: no shards"
[[ $(run "$rave" export "$work/set" -f hf --angle -o "$work/hub2") == 2 ]] || fail "export -f hf --angle: exit code"

# IBM's own files (docs/evaluation.md#ibms-json-files): solved and exported as their problems.
ibm="$src/tests/fixtures/ibm/center_single_shuffle_n_10_maxval_1000_nconf_3.json"
[[ $(run "$rave" solve "$ibm") == 0 ]] || fail "solve IBM json: $(cat "$work/err")"
grep -q "accuracy 100.00% on the 3 of 3" "$work/out" || fail "solve IBM json: $(cat "$work/out")"
[[ $(run "$rave" export "$ibm" --no-offsets -o "$work/ibm.jsonl") == 0 ]] || fail "export IBM json: $(cat "$work/err")"
"$py" -c '
import json, sys
ids = [json.loads(l)["id"] for l in open(sys.argv[1])]
splits = [json.loads(l)["split"] for l in open(sys.argv[1])]
assert ids == ["0", "1", "8000"] and splits == ["train", "train", "test"], (ids, splits)
' "$work/ibm.jsonl" || fail "export IBM json: ids and splits"
echo '{"0": {"rpm": [[{"Type": "3"}]], "target": 1}}' > "$work/broken_ibm.json"
[[ $(run "$rave" solve "$work/broken_ibm.json") == 1 ]] || fail "broken IBM json: exit code"
grep -q 'broken_ibm.json:problem "0" rpm' "$work/err" || fail "broken IBM json: $(cat "$work/err")"

finish "evaluation CLI"
