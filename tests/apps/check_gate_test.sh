#!/usr/bin/env bash
# `rave check` as a gate (issue 28's D3, D4, D12): each mutation of a generated dataset fails the
# check (exit 3), the unlisted-file ones pass with --allow-extra, and a manifest that cannot be read
# is one line naming the field (exit 1). Usage: check_gate_test.sh RAVE_BINARY
set -u
# shellcheck source=../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"

"$rave" generate -n 10 -c center,2x2 -o "$work/base" -j 2 >/dev/null 2>&1 || fail "generate"
[[ $(run "$rave" check "$work/base") == 0 ]] || fail "the untouched set: $(cat "$work/out" "$work/err")"
grep -q "40 files listed, 0 differ, 4 problems made again; 0 unlisted" "$work/out" || fail "summary: $(head -1 "$work/out")"

fresh() { rm -rf "$work/d"; cp -a "$work/base" "$work/d"; }
edit_manifest() { "$py" -c "import json,sys; p=sys.argv[1]; m=json.load(open(p)); $1; json.dump(m, open(p,'w'), indent=2)" "$work/d/rave.json"; }
# expect CODE WORDS NAME: the check's exit code and a phrase of its output.
expect() {
  local code=$1 words=$2 name=$3; shift 3
  local got; got=$(run "$rave" check "$work/d" "$@")
  [[ $got == "$code" ]] || fail "$name: exit $got, expected $code: $(grep -v '^ \|^problems\|^unique\|^ambig\|^answer\|^distr\|^dupl\|^failed\|^context\|^with\|^unread' "$work/out" | head -3) $(cat "$work/err")"
  grep -q -- "$words" "$work/out" "$work/err" || fail "$name: no '$words' in: $(head -3 "$work/out") $(cat "$work/err")"
}

fresh; cp "$work/d/center_single/RAVEN_0_train.npz" "$work/d/center_single/RAVEN_0_copy.npz"
cp "$work/d/center_single/RAVEN_0_train.xml" "$work/d/center_single/RAVEN_0_copy.xml"
expect 3 "RAVEN_0_copy.xml: not listed in rave.json" "a copied problem pair"
expect 0 "RAVEN_0_copy.npz: not listed in rave.json (allowed)" "a copied pair, --allow-extra" --allow-extra
fresh; head -c 1000 /dev/urandom >"$work/d/distribute_four/RAVEN_99_test.npz"
expect 3 "RAVEN_99_test.npz: not listed" "a random npz without XML"
expect 0 "(allowed)" "a random npz, --allow-extra" --allow-extra
fresh; mkdir -p "$work/d/stray/deeper" && touch "$work/d/stray/deeper/x"
expect 3 "stray/: not listed" "a stray subfolder"
fresh; touch "$work/d/notes.txt"
expect 3 "notes.txt: not listed" "a note at the root"
expect 0 "notes.txt: not listed in rave.json (allowed)" "a note, --allow-extra" --allow-extra
fresh; edit_manifest 'm["files"] = [f for f in m["files"] if f["path"] != "center_single/RAVEN_3_train.xml"]'
expect 3 "center_single/RAVEN_3_train.xml not listed" "an entry removed, its file kept"
expect 3 "RAVEN_3_train.xml not listed" "an entry removed, --allow-extra" --allow-extra
fresh; edit_manifest 'm["counts"]["problems"] = 21'
expect 3 "counts.problems: 21 said, 20 listed" "counts edited"
fresh; edit_manifest 'm["seed"] = 7'
expect 3 "made again from rave.json's parameters" "seed edited"
fresh; edit_manifest 'm["answers"] = "iraven"'
expect 3 "made again from rave.json's parameters" "answers edited"
fresh; edit_manifest 'm["files"].append(dict(m["files"][0]))'
expect 3 "listed twice" "a duplicate entry"
fresh; edit_manifest 'm["files"][0]["path"] = "../../../etc/hostname"'
expect 3 "'../../../etc/hostname' lies outside the dataset's layout; not read" "a path outside the folder"
fresh; mv "$work/d/center_single/RAVEN_0_train.npz" "$work/elsewhere.npz"
ln -s "$work/elsewhere.npz" "$work/d/center_single/RAVEN_0_train.npz"
expect 3 "a symbolic link" "a listed file that is a link"
fresh; rm "$work/d/rave.json"
expect 3 "no rave.json" "rave.json deleted"
expect 0 "problems" "rave.json deleted, --no-manifest" --no-manifest
fresh; edit_manifest 'm["num_samples"] = 1e30'
expect 1 'rave.json:"num_samples": expected a whole number >= 0, found 1e+30' "num_samples 1e30"
[[ $(wc -l <"$work/err") == 1 ]] || fail "num_samples 1e30: not one line: $(cat "$work/err")"
fresh; edit_manifest 'm["counts"] = "many"'
expect 1 'rave.json:"counts.problems": missing' "counts not an object"
fresh; printf '{"format": "rave dataset manifest", ' >"$work/d/rave.json"
expect 1 "rave.json:byte 37: not JSON" "a cut manifest"

finish "check gate"
