#!/usr/bin/env bash
# scripts/neural/campaign.py, the resumable training campaign of docs/neural.md#table-2, on
# scripts/neural/smoke.plan (10 problems per configuration, 2 epochs): every run trained, the tables
# with their seeds' intervals, the paired effect and the paper's rows; a campaign stopped mid-run
# continues from last.pt; a campaign moved to a folder without its data regenerates the data and
# resumes there (the checkpoint checks it is the same data); a folder holding other data is refused;
# runs from another machine's folder are imported and counted apart (a run carried there and
# continued: only its epochs there); a damaged checkpoint, imports.jsonl or rave.json refused in one line; publish copies only small files and the evidence rescore.py rebuilds its tables from; a bad plan is one error line naming the file and line; a plan's `published` runs count as done and stay in its tables where their folders are gone; a damaged committed curve is one error line naming it.
# Usage: cli_campaign_test.sh RAVE_BINARY
set -u
# shellcheck source=../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
campaign=("$py" "$root/scripts/neural/campaign.py")
smoke="$root/scripts/neural/smoke.plan"

# 1. The whole smoke plan.
[[ $(run "${campaign[@]}" run --plan "$smoke" --out "$work/a" --rave "$rave" --slots 2) == 0 ]] || fail "run: $(tail -5 "$work/err") $(tail -5 "$work/out")"
grep -q "Runs finished: 7 of 7" "$work/out" || fail "status after the run: $(tail -3 "$work/out")"
for t in raven scaling iraven; do [[ -s "$work/a/tables/$t.md" && -s "$work/a/tables/$t.csv" && -s "$work/a/tables/$t.png" ]] || fail "table $t missing"; done
grep -q "^| CNN | [0-9.]* \[" "$work/a/tables/raven.md" && grep -q "| 2 seeds |" "$work/a/tables/raven.md" || fail "seed row: $(cat "$work/a/tables/raven.md")"
grep -q "^| CNN (candidates only) |" "$work/a/tables/raven.md" || fail "candidates-only row"
grep -q "^- CNN+DRT - CNN, paired by seed: [-+][0-9.]*, [-+][0-9.]* points; mean [-+][0-9.]* ± " "$work/a/tables/raven.md" || fail "paired effect: $(tail -2 "$work/a/tables/raven.md")"
grep -q "^| CNN | 36.97 | 33.58 |" "$work/a/tables/raven.md" || fail "paper row"
grep -q "^| CNN, 14 |" "$work/a/tables/scaling.md" || fail "scaling row: $(cat "$work/a/tables/scaling.md")"
"$py" - "$work/a" <<'PY' || fail "train limit or patience not applied"
import json, sys, pathlib
out = pathlib.Path(sys.argv[1])
test = (out / "runs/raven/cnn-2-seed1/test.md").read_text()
info = [json.loads(l) for l in (out / "runs/raven/cnn-2-seed1/metrics.jsonl").read_text().splitlines()]
assert len(info) == 1, info  # the run's -e 1 overrides the defaults' -e 2
PY
grep -q "train -b 8 .* -m cnn --train-limit 2 -e 1 -s 1 -d " "$work/a/campaign.log" || fail "the run's flags after the defaults"
! grep -q "train .* -e 2 .* -e 1 " "$work/a/campaign.log" || fail "a run's flag and the defaults' both given: $(grep 'start raven/cnn-2-seed1' "$work/a/campaign.log")"

# 2. Nothing is left to do: a second run trains nothing.
[[ $(run "${campaign[@]}" run --plan "$smoke" --out "$work/a" --rave "$rave") == 0 ]] || fail "second run"
grep -q "0 runs to do" "$work/out" || fail "second run trained again: $(grep 'runs to do' "$work/out")"

# 3. A sitting stopped mid-run continues from last.pt; then the campaign moves to a folder without
# its data, which is regenerated from the seed and checked, and the run resumes there.
sed -e 's/-e 2 --patience 1/-e 12 --patience 0/' "$smoke" >"$work/long.plan"
"${campaign[@]}" run --plan "$work/long.plan" --out "$work/b" --rave "$rave" --only raven/cnn-seed1 >"$work/b.log" 2>&1 &
pid=$!
for _ in $(seq 600); do [[ -s "$work/b/runs/raven/cnn-seed1/metrics.jsonl" ]] && break; sleep 0.1; done
kill -TERM "$pid"; wait "$pid"; code=$?
[[ $code != 0 ]] || fail "a stopped campaign exits 0"
[[ -f "$work/b/runs/raven/cnn-seed1/last.pt" && ! -f "$work/b/runs/raven/cnn-seed1/test.md" ]] || fail "no interrupted run to resume"
done_epochs=$(wc -l <"$work/b/runs/raven/cnn-seed1/metrics.jsonl")
mkdir -p "$work/c" && cp -r "$work/b/runs" "$work/b/sittings.jsonl" "$work/c/"
[[ $(run "${campaign[@]}" run --plan "$work/long.plan" --out "$work/c" --rave "$rave" --only raven/cnn-seed1) == 0 ]] || fail "resume elsewhere: $(tail -5 "$work/out")"
[[ -f "$work/c/data/raven/rave.json" ]] || fail "the data was not regenerated"
grep -q -- "-o $work/c/runs/raven/cnn-seed1 --resume" "$work/c/campaign.log" || fail "not resumed: $(grep start "$work/c/campaign.log")"
[[ $(wc -l <"$work/c/runs/raven/cnn-seed1/metrics.jsonl") == 12 ]] || fail "resumed run's epochs"
grep -q "^epoch $((done_epochs + 1))/12 " "$work/c/logs/raven-cnn-seed1.log" || fail "did not continue at epoch $((done_epochs + 1))"
[[ $(wc -l <"$work/c/sittings.jsonl") == 2 ]] || fail "sittings: $(cat "$work/c/sittings.jsonl")"
grep -q "Campaign wall time over 2 sittings" "$work/out" || fail "wall time account"

# status: the epochs left if no later epoch validates better (patience after the best), and at most.
sed -e 's/--patience 0/--patience 3/' "$work/long.plan" >"$work/patient.plan"
[[ $(run "${campaign[@]}" status --plan "$work/patient.plan" --out "$work/b") == 0 ]] || fail "status of a stopped run"
best=$("$py" -c 'import json,sys; m=[json.loads(l) for l in open(sys.argv[1])]; print(max(m, key=lambda e: (e["val_accuracy"], -e["epoch"]))["epoch"])' "$work/b/runs/raven/cnn-seed1/metrics.jsonl")
least=$((3 - (done_epochs - best))); ((least > 12 - done_epochs)) && least=$((12 - done_epochs)); ((least < 0)) && least=0
grep -q "^| raven/cnn-seed1 | running or interrupted | $done_epochs/12 | $best (.*) | .* | $least / $((12 - done_epochs)) |" "$work/out" || fail "epochs left: best $best, $(grep cnn-seed1 "$work/out")"
grep -q "CPU-hours still to go for the started runs, at their own rate here: [0-9.]* if no run finds a better epoch, at most [0-9.]* (every epoch allowed)" "$work/out" || fail "hours to go: $(tail -1 "$work/out")"

# 4. A folder holding other data (another seed) under the plan's name is refused, nothing trained.
mkdir -p "$work/d" && cp -r "$work/b/runs" "$work/d/"
"$rave" generate -n 10 --answers raven --seed 99 --compress -o "$work/d/data/raven" >/dev/null 2>&1
[[ $(run "${campaign[@]}" run --plan "$work/long.plan" --out "$work/d" --rave "$rave" --only raven/cnn-seed1) == 1 ]] || fail "other data accepted"
grep -q "seed: 99 in rave.json, 1234 in this run" "$work/err" || fail "refusal: $(cat "$work/err")"
[[ $(wc -l <"$work/d/runs/raven/cnn-seed1/metrics.jsonl") == "$done_epochs" ]] || fail "trained on other data"

# 4b. import: runs trained in another machine's folder come back, recorded in imports.jsonl and
# counted apart from this machine's CPU-hours; a further-along run here is kept; other data are
# refused, nothing imported; a folder in use by another run or import is refused.
[[ $(run "${campaign[@]}" import "$work/b" --plan "$work/long.plan" --out "$work/f" --rave "$rave") == 0 ]] || fail "import: $(cat "$work/err")"
[[ $(wc -l <"$work/f/runs/raven/cnn-seed1/metrics.jsonl") == "$done_epochs" && -f "$work/f/runs/raven/cnn-seed1/last.pt" ]] || fail "imported run"
grep -q "import: raven/cnn-seed1: $done_epochs epochs from $work/b .*, to be resumed here" "$work/f/campaign.log" || fail "import log: $(cat "$work/f/campaign.log")"
[[ $(run "${campaign[@]}" import "$work/c" --plan "$work/long.plan" --out "$work/f" --rave "$rave") == 0 ]] || fail "second import"
[[ $(wc -l <"$work/f/runs/raven/cnn-seed1/metrics.jsonl") == 12 && -f "$work/f/runs/raven/cnn-seed1/test.md" ]] || fail "the further run not taken"
[[ $(wc -l <"$work/f/imports.jsonl") == 2 ]] || fail "imports.jsonl: $(cat "$work/f/imports.jsonl")"
[[ $(run "${campaign[@]}" import "$work/b" --plan "$work/long.plan" --out "$work/f" --rave "$rave") == 0 ]] || fail "third import"
grep -q "import: raven/cnn-seed1: here 12 epochs, $work/b $done_epochs: kept" "$work/f/campaign.log" || fail "a further run here was replaced"
[[ $(run "${campaign[@]}" status --plan "$work/long.plan" --out "$work/f") == 0 ]] || fail "status after import"
grep -q "Training CPU-hours so far (epoch seconds x threads, evaluation included): 0.00\." "$work/out" || fail "imported epochs counted as this machine's: $(tail -3 "$work/out")"
grep -q "Imported from other machines (imports.jsonl): 12 epochs of 1 runs" "$work/out" || fail "import account: $(tail -3 "$work/out")"
# A run carried from here to another machine and continued there: only the epochs trained there
# are counted as that machine's.
mkdir -p "$work/h" && cp -r "$work/b/runs" "$work/b/sittings.jsonl" "$work/h/"
[[ $(run "${campaign[@]}" import "$work/c" --plan "$work/long.plan" --out "$work/h" --rave "$rave") == 0 ]] || fail "import of a carried run: $(cat "$work/err")"
grep -q "import: raven/cnn-seed1: 12 epochs from $work/c (.*; epochs $((done_epochs + 1))-12 trained there), finished" "$work/h/campaign.log" || fail "carried import log: $(cat "$work/h/campaign.log")"
[[ $(run "${campaign[@]}" status --plan "$work/long.plan" --out "$work/h") == 0 ]] || fail "status after a carried import"
grep -q "Imported from other machines (imports.jsonl): $((12 - done_epochs)) epochs of 1 runs" "$work/out" || fail "carried run's account: $(tail -3 "$work/out")"
# A damaged imports.jsonl or rave.json: one line naming the file and the line, nothing imported.
mkdir -p "$work/k" && cp -r "$work/h/runs" "$work/h/imports.jsonl" "$work/k/" && echo '{"run": "raven/cnn' >>"$work/k/imports.jsonl"
[[ $(run "${campaign[@]}" status --plan "$work/long.plan" --out "$work/k") == 1 ]] || fail "a damaged imports.jsonl accepted"
[[ $(wc -l <"$work/err") == 1 ]] && grep -q "^campaign: error: $work/k/imports.jsonl:2: not a JSON record (" "$work/err" || fail "imports.jsonl message: $(cat "$work/err")"
mkdir -p "$work/m/data/raven" && cp -r "$work/c/runs" "$work/m/" && head -c 100 "$work/c/data/raven/rave.json" >"$work/m/data/raven/rave.json"
rm -rf "$work/n" && mkdir -p "$work/n"
[[ $(run "${campaign[@]}" import "$work/m" --plan "$work/long.plan" --out "$work/n" --rave "$rave") == 1 ]] || fail "a damaged rave.json accepted"
[[ $(wc -l <"$work/err") == 1 ]] && grep -q "^campaign: error: $work/m/data/raven/rave.json:[0-9]*: not JSON (" "$work/err" || fail "rave.json message: $(cat "$work/err")"
[[ ! -e "$work/n/runs/raven/cnn-seed1" ]] || fail "a run imported from a folder with a damaged rave.json"
mkdir -p "$work/g/data/raven" && cp "$work/c/data/raven/rave.json" "$work/g/data/raven/"
[[ $(run "${campaign[@]}" import "$work/d" --plan "$work/long.plan" --out "$work/g" --rave "$rave") == 1 ]] || fail "other data imported"
grep -q "^campaign: error: import: raven/cnn-seed1: $work/d/data/raven/rave.json describes other data than this campaign's; nothing was imported from it" "$work/err" || fail "other-data message: $(cat "$work/err")"
[[ ! -e "$work/g/runs/raven/cnn-seed1" ]] || fail "a run on other data was imported"
# A damaged checkpoint in the other folder (16 bytes of last.pt changed): refused naming it, nothing
# imported (the run would have replaced this folder's).
mkdir -p "$work/p/data/raven" "$work/q" && cp -r "$work/c/runs" "$work/p/" && cp "$work/c/data/raven/rave.json" "$work/p/data/raven/"
"$py" -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read())
for i in range(len(b) // 2, len(b) // 2 + 16): b[i] ^= 0xFF
open(sys.argv[1], "wb").write(b)' "$work/p/runs/raven/cnn-seed1/last.pt"
[[ $(run "${campaign[@]}" import "$work/p" --plan "$work/long.plan" --out "$work/q" --rave "$rave") == 1 ]] || fail "a damaged checkpoint imported"
[[ $(wc -l <"$work/err") == 1 ]] && grep -q "^campaign: error: import: $work/p/runs/raven/cnn-seed1/last.pt: damaged checkpoint (CRC mismatch in member " "$work/err" || fail "damaged checkpoint message: $(cat "$work/err")"
[[ ! -e "$work/q/runs/raven/cnn-seed1" && ! -e "$work/q/runs/raven/cnn-seed1.importing" ]] || fail "a run with a damaged checkpoint was imported"
flock "$work/f/campaign.lock" sleep 3 & holder=$!
sleep 0.5
[[ $(run "${campaign[@]}" import "$work/c" --plan "$work/long.plan" --out "$work/f" --rave "$rave") == 1 ]] && grep -q "is in use by another campaign.py run or import" "$work/err" || fail "lock: $(cat "$work/err")"
wait "$holder"

# 5. publish: tables, status and curves; no checkpoint.
[[ $(run "${campaign[@]}" publish "$work/pub" --plan "$smoke" --out "$work/a" --rave "$rave") == 0 ]] || fail "publish: $(cat "$work/err")"
[[ -s "$work/pub/raven.md" && -s "$work/pub/status.md" && -s "$work/pub/curves/raven-cnn-seed1.csv" && -s "$work/pub/curves/raven-cnn-seed1.png" ]] || fail "published files: $(ls -R "$work/pub")"
[[ -z "$(find "$work/pub" -name '*.pt' -o -name '*.npz')" ]] || fail "published a checkpoint or data"
# the evidence: the answer key, each finished run's answers and record, and the tables rebuilt from them
# alone (scripts/neural/rescore.py), which agree with rave score's on the same answers
[[ -s "$work/pub/keys/raven.tsv.gz" && -s "$work/pub/runs/raven-cnn-seed1/answers.gz" && -s "$work/pub/runs/raven-cnn-seed1/run.json" && -s "$work/pub/tables.json" && -s "$work/pub/raven.rave-score.md" ]] || fail "evidence: $(ls -R "$work/pub")"
"$py" "$root/scripts/neural/rescore.py" --check "$work/pub" || fail "rescore --check on what publish wrote"
"$py" - "$work/pub" <<'PY' || fail "rescore's rows differ from rave score's"
import pathlib, sys
pub = pathlib.Path(sys.argv[1])
def rows(path):  # the first table's rows (rave score's file has the paper's table below)
    out = {}
    for l in (pub / path).read_text().splitlines():
        if l.startswith("| "):
            out.setdefault(l.split(" | ")[0][2:], [c.split(" [")[0] for c in l.split(" | ")[1:9]])
    return out
ours, theirs = rows("raven.md"), rows("raven.rave-score.md")
for label in ("CNN", "CNN+DRT", "CNN (candidates only)"):
    assert ours[label] == theirs[label], (label, ours[label], theirs[label])
PY
grep -q '"train_devices": {' "$work/pub/runs/raven-cnn-seed1/run.json" && grep -q '"cpu": 2' "$work/pub/runs/raven-cnn-seed1/run.json" || fail "devices: $(cat "$work/pub/runs/raven-cnn-seed1/run.json")"
# the machine of each sitting, with its CPU (a CPU run's figures depend on the CPU's BLAS kernels)
grep -q '"host": "[^"(]* ([^)]*)"' "$work/pub/runs/raven-cnn-seed1/run.json" || fail "host without its CPU: $(cat "$work/pub/runs/raven-cnn-seed1/run.json")"
grep -q 'train: cpu x2 on [^;]* ([^)]*); answers: cpu on [^|]* ([^)]*)' "$work/pub/raven.md" || fail "devices column: $(grep CNN "$work/pub/raven.md")"
head -1 "$work/pub/curves/raven-cnn-seed1.csv" | grep -q "^epoch,train_loss,train_accuracy,val_loss,val_accuracy" || fail "curve CSV header"

# 6. A bad plan: one line naming the file and the line.
printf 'data raven -n 10\nrun x raven -m cnn\nbogus line\n' >"$work/bad.plan"
[[ $(run "${campaign[@]}" status --plan "$work/bad.plan" --out "$work/e") == 1 ]] || fail "bad plan accepted"
[[ $(wc -l <"$work/err") == 1 ]] && grep -q "^campaign: error: $work/bad.plan:3: unknown line kind 'bogus'" "$work/err" || fail "bad plan message: $(cat "$work/err")"
printf 'data raven -n 10\ntable t raven title\nrow t CNN nowhere\n' >"$work/bad.plan"
[[ $(run "${campaign[@]}" status --plan "$work/bad.plan" --out "$work/e") == 1 ]] && grep -q "names the run nowhere" "$work/err" || fail "undefined run: $(cat "$work/err")"

# 7. --set replaces a plan's flag in every rave run (a CPU sitting of a GPU plan: --set=--device=cpu);
# a run whose --init-weights file (relative: the campaign folder's) is missing is refused in one line, the others run.
[[ $(run "${campaign[@]}" run --plan "$smoke" --out "$work/s" --rave "$rave" --only raven/cnn-seed1 --set=-e=1) == 0 ]] || fail "--set run: $(cat "$work/err")"
grep -q "train .* -e 1 -d " "$work/s/campaign.log" && ! grep -q "train .* -e 2 " "$work/s/campaign.log" || fail "--set not applied: $(grep start "$work/s/campaign.log")"
[[ $(wc -l <"$work/s/runs/raven/cnn-seed1/metrics.jsonl") == 1 ]] || fail "--set=-e=1 trained other than 1 epoch"
[[ $(run "${campaign[@]}" publish "$work/spub" --plan "$smoke" --out "$work/s" --rave "$rave") == 0 ]] || fail "publish after --set: $(cat "$work/err")"
grep -q '"command": "[^"]*train [^"]* -e 1 -d ' "$work/spub/runs/raven-cnn-seed1/run.json" || fail "run.json does not say the command that ran: $(cat "$work/spub/runs/raven-cnn-seed1/run.json")"
# a run started again from nothing (its folder removed) keeps only its own sittings in run.json: the
# earlier log moves to .log.1
rm -r "$work/s/runs/raven/cnn-seed1"
[[ $(run "${campaign[@]}" run --plan "$smoke" --out "$work/s" --rave "$rave" --only raven/cnn-seed1 --set=-e=1) == 0 ]] || fail "fresh restart: $(cat "$work/err")"
[[ -s "$work/s/logs/raven-cnn-seed1.log.1" ]] && grep -q "raven/cnn-seed1 starts afresh: its earlier log is $work/s/logs/raven-cnn-seed1.log.1" "$work/s/campaign.log" || fail "earlier log not moved: $(ls "$work/s/logs")"
[[ $(run "${campaign[@]}" publish "$work/spub2" --plan "$smoke" --out "$work/s" --rave "$rave") == 0 ]] || fail "publish after a fresh restart: $(cat "$work/err")"
[[ $(grep -c '"command":' "$work/spub2/runs/raven-cnn-seed1/run.json") == 1 ]] || fail "a discarded sitting in run.json: $(cat "$work/spub2/runs/raven-cnn-seed1/run.json")"
[[ $(run "${campaign[@]}" run --plan "$smoke" --out "$work/s" --rave "$rave" --set=-e) == 1 ]] && grep -q "^campaign: error: --set takes FLAG=VALUE" "$work/err" || fail "bad --set: $(cat "$work/err")"
printf 'data raven -n 10\nrun x raven -m cnn -e 1 --init-weights init/none.pt\nrun y raven -m cnn -e 1 -b 8\n' >"$work/init.plan"
[[ $(run "${campaign[@]}" run --plan "$work/init.plan" --out "$work/t" --rave "$rave") == 1 ]] || fail "a missing --init-weights file accepted"
[[ $(wc -l <"$work/err") == 1 ]] && grep -q "^campaign: error: run x: its --init-weights file $work/t/init/none.pt does not exist" "$work/err" || fail "init-weights message: $(cat "$work/err")"
[[ ! -e "$work/t/runs/x/metrics.jsonl" && -s "$work/t/runs/y/test.md" ]] || fail "a run trained without its initial weights, or the other run not trained"
# 8. A plan's `published` folder: on a machine without the run folders (a fresh clone, a lease), the
# runs published there count as done, are not re-trained, and keep their rows, answers and curves in
# the next publication; the tables rebuilt from it equal the first publication's.
{ cat "$smoke"; echo "published $work/pub"; } >"$work/published.plan"
[[ $(run "${campaign[@]}" status --plan "$work/published.plan" --out "$work/fresh") == 0 ]] || fail "status with published runs: $(cat "$work/err")"
grep -q "Runs finished: 7 of 7" "$work/out" && grep -q "^| raven/cnn-seed1 | done (published: $work/pub/runs/raven-cnn-seed1) | 2/2 |" "$work/out" || fail "published runs not counted done: $(cat "$work/out")"
# their figures (best and last validation, hours, rates) come from the committed curves, as the
# machine that trained them showed them, and their hours are counted apart from this machine's
figures() { grep "^| raven/cnn-seed1 |" "$1" | cut -d'|' -f4-; }
[[ -n "$(figures "$work/pub/status.md")" ]] && cmp <(figures "$work/pub/status.md") <(figures "$work/out") || fail "a published run's figures: $(figures "$work/out") against $(figures "$work/pub/status.md")"
grep -q "^Published runs, carried from their committed curves ($work/pub): [0-9]* epochs of 7 runs, [0-9.]* h of their epoch time, not counted above.$" "$work/out" && grep -q "Training CPU-hours so far (epoch seconds x threads, evaluation included): 0.00\." "$work/out" || fail "published hours: $(cat "$work/out")"
[[ $(run "${campaign[@]}" run --plan "$work/published.plan" --out "$work/fresh" --rave "$rave") == 0 ]] && grep -q "0 runs to do" "$work/out" || fail "published runs re-trained: $(grep 'runs to do' "$work/out") $(cat "$work/err")"
[[ $(run "${campaign[@]}" publish "$work/ppub" --plan "$work/published.plan" --out "$work/fresh" --rave "$rave") == 0 ]] || fail "publish from published runs: $(cat "$work/err")"
"$py" "$root/scripts/neural/rescore.py" --check "$work/ppub" || fail "rescore --check on a publication of published runs"
cmp <(grep '^| ' "$work/pub/raven.md") <(grep '^| ' "$work/ppub/raven.md") || fail "a publication of published runs differs: $(cat "$work/ppub/raven.md")"
grep -q "^| CNN | [0-9.]* \[" "$work/ppub/raven.rave-score.md" && [[ -s "$work/ppub/curves/raven-cnn-seed1.csv" ]] || fail "rave score's table or the curves lost the published runs: $(ls -R "$work/ppub")"
# a run whose publication holds only its partial curve (an earlier sitting's, its last.pt gone with
# that machine): not started here, and status says what the curve reached
cp -r "$work/pub" "$work/partpub" && rm -r "$work/partpub/runs/raven-cnn-seed1"
{ cat "$smoke"; echo "published $work/partpub"; } >"$work/part.plan"
[[ $(run "${campaign[@]}" status --plan "$work/part.plan" --out "$work/fresh") == 0 ]] || fail "status with a published partial curve: $(cat "$work/err")"
grep -q "^| raven/cnn-seed1 | not started here (published partial curve: 2 epochs, best [12] at [0-9.]*; its last.pt stayed where it trained) | 0/2 |" "$work/out" && grep -q "Runs finished: 6 of 7" "$work/out" && grep -q "not started: 1 runs" "$work/out" || fail "a published partial curve: $(cat "$work/out")"
# a damaged committed curve (a row cut short): status refuses it in one line naming the file
cp -r "$work/pub" "$work/cpub" && sed -i '2s/,.*//' "$work/cpub/curves/raven-cnn-seed1.csv"
{ cat "$smoke"; echo "published $work/cpub"; } >"$work/cpub.plan"
[[ $(run "${campaign[@]}" status --plan "$work/cpub.plan" --out "$work/fresh") == 1 ]] || fail "a damaged published curve accepted"
[[ $(wc -l <"$work/err") == 1 ]] && grep -q "^campaign: error: $work/cpub/curves/raven-cnn-seed1.csv: not a curve of epochs" "$work/err" || fail "damaged curve message: $(cat "$work/err")"
# published answers to other data (another seed under the plan's name): refused in one line
{ sed 's/^data raven .*/data raven -n 10 --answers raven --compress -s 7/' "$smoke"; echo "published $work/pub"; } >"$work/other.plan"
[[ $(run "${campaign[@]}" run --plan "$work/other.plan" --out "$work/other" --rave "$rave" --only none) == 1 ]] || fail "published answers to other data accepted"
grep -q "^campaign: error: run raven/cnn-seed1: its published answers ($work/pub/runs/raven-cnn-seed1) are to a key other than $work/other/data/raven's test split" "$work/err" || fail "other data message: $(cat "$work/err")"
# answers of another key (a published answers.gz damaged): one line naming the file, nothing published
printf '# rave answers of x.jsonl: key 0\n0\n' | gzip >"$work/pub/runs/raven-cnn-seed1/answers.gz"
[[ $(run "${campaign[@]}" report --plan "$work/published.plan" --out "$work/fresh" --rave "$rave") == 1 ]] || fail "damaged published answers accepted"
[[ $(wc -l <"$work/err") == 1 ]] && grep -q "^campaign: error: run raven/cnn-seed1: its published evidence cannot be read: $work/pub/runs/raven-cnn-seed1/answers.gz: not the answers to the key" "$work/err" || fail "damaged published answers message: $(cat "$work/err")"
# 9. A table left with nothing to show (its rows now name a run not trained) loses the files an
# earlier report and publication made for it; the other tables stay.
[[ $(run "${campaign[@]}" publish "$work/pub3" --plan "$smoke" --out "$work/a" --rave "$rave") == 0 ]] && [[ -s "$work/pub3/scaling.md" && -s "$work/pub3/scaling.rave-score.md" ]] || fail "publish with the scaling table: $(cat "$work/err")"
{ grep -v '^row scaling' "$smoke"; echo 'run never raven -m cnn -e 1'; echo 'row scaling "never" never'; } >"$work/dropped.plan"
[[ $(run "${campaign[@]}" publish "$work/pub3" --plan "$work/dropped.plan" --out "$work/a" --rave "$rave") == 0 ]] || fail "publish without the scaling rows: $(cat "$work/err")"
[[ -z "$(ls "$work/a/tables" "$work/pub3" | grep '^scaling')" ]] || fail "a table without rows outlived them: $(ls "$work/a/tables" "$work/pub3")"
[[ -s "$work/pub3/raven.md" && -s "$work/pub3/raven.rave-score.md" && -s "$work/pub3/raven.png" ]] || fail "the other tables lost: $(ls "$work/pub3")"
"$py" "$root/scripts/neural/rescore.py" --check "$work/pub3" || fail "rescore --check after a table was dropped"
finish "campaign"
