#!/usr/bin/env bash
# `rave check` as a gate (issue 28's D3, D4, D12; issue 41's item 4): each mutation of a generated
# dataset fails the check (exit 3), the unlisted-file ones pass with --allow-extra, and a manifest
# that cannot be read is one line naming the field (exit 1). The second half edits problems the way
# a hostile editor would, consistently (every size and CRC-32 in rave.json updated): each is
# caught by the problems' own checks (also without rave.json, where the edit needs none) or by the
# replay of the generator. Usage: check_gate_test.sh RAVE_BINARY
set -u
# shellcheck source=../../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../cli_lib.sh"

"$rave" generate -n 10 -c center,2x2 -o "$work/base" -j 2 >/dev/null 2>&1 || fail "generate"
[[ $(run "$rave" check "$work/base") == 0 ]] || fail "the untouched set: $(cat "$work/out" "$work/err")"
grep -q "40 files listed, 0 differ; 0 unlisted" "$work/out" || fail "summary: $(head -1 "$work/out")"
grep -q "rave.json: 20 of 20 problems made again from its parameters" "$work/out" || fail "replay count: $(cat "$work/out")"

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
fresh; "$py" -c "
import re, sys; p = sys.argv[1]; x = open(p).read()
open(p, 'w').write(re.sub(r'Color=\"(\d)\"', lambda m: 'Color=\"%d\"' % ((int(m.group(1)) + 1) % 10), x, count=1))" "$work/d/center_single/RAVEN_3_train.xml"
expect 3 "center_single/RAVEN_3_train.xml: CRC-32 differs from rave.json" "a file changed, its size kept"
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

# Hostile, consistent edits of problems (issue 41): rave.json's sizes and CRC-32s follow each.
recrc() {
  "$py" - "$work/d" <<'EOF'
import json, os, sys, zlib
root = sys.argv[1]; path = os.path.join(root, "rave.json"); m = json.load(open(path))
for f in m["files"]:
    p = os.path.join(root, f["path"])
    if os.path.exists(p):
        b = open(p, "rb").read(); f["size"] = len(b); f["crc32"] = "%08x" % zlib.crc32(b)
json.dump(m, open(path, "w"), indent=2)
EOF
}
# npz_edit STEM CODE: CODE changes `a`, the npz's arrays by name (in file order), saved as numpy does.
npz_edit() {
  "$py" -c "
import numpy as np, sys
f = sys.argv[1] + '.npz'; a = dict(np.load(f)); $2
np.savez(f, **a)" "$work/d/$1"
}
# edited NAME WORDS: the edit fails the check with WORDS, with rave.json and (NOMANIFEST=1, an edit
# that needs no manifest to be seen) without it.
edited() {
  recrc
  expect 3 "$2" "$1"
  [[ ${NOMANIFEST:-0} == 1 ]] || return 0
  rm "$work/d/rave.json"
  expect 3 "$2" "$1, --no-manifest" --no-manifest
}
c=center_single; f=distribute_four
fresh; ln -f "$work/d/$c/RAVEN_0_train.npz" "$work/d/$c/RAVEN_8_test.npz"
ln -f "$work/d/$c/RAVEN_0_train.xml" "$work/d/$c/RAVEN_8_test.xml"
NOMANIFEST=1 edited "a test problem hard-linked to a train problem" "RAVEN_8_test.xml: .*the same images as .*RAVEN_0_train.xml"
fresh; npz_edit $c/RAVEN_1_train 'a["image"][3, 80, 80] ^= 255'
NOMANIFEST=1 edited "one pixel of panel 3 changed" "RAVEN_1_train.xml: image: panel 3 differ"
fresh; npz_edit $f/RAVEN_2_train 'a["image"][[9, 12]] = a["image"][[12, 9]]'
NOMANIFEST=1 edited "two candidates' images swapped" "image: panels 9, 12 differ from the XML re-rendered"
fresh; for x in npz xml; do cp "$work/d/$c/RAVEN_3_train.$x" "$work/d/$f/RAVEN_3_train.$x"; done
NOMANIFEST=1 edited "a Center problem inside distribute_four/" "a Center problem inside distribute_four/"
fresh; npz_edit $c/RAVEN_4_train 'a["meta_target"] = 1 - a["meta_target"]'
NOMANIFEST=1 edited "meta_target inverted" "meta_target: not the XML's rules"
fresh; npz_edit $c/RAVEN_4_train 'a["meta_matrix"][0] = 1 - a["meta_matrix"][0]'
NOMANIFEST=1 edited "meta_matrix changed" "meta_matrix: not the XML's rules"
fresh; npz_edit $c/RAVEN_4_train 'a["structure"] = np.load(f.replace("center_single", "distribute_four"))["structure"]'
NOMANIFEST=1 edited "another configuration's structure" "structure: not the XML's configuration"
fresh; npz_edit $f/RAVEN_5_train 'a["extra"] = np.zeros(3)'
NOMANIFEST=1 edited "an extra array in an npz" "npz: extra member 'extra'"
fresh; npz_edit $f/RAVEN_5_train 'del a["meta_target"]'
NOMANIFEST=1 edited "an array deleted from an npz" "npz: no member 'meta_target'"
fresh; rm "$work/d/$c/RAVEN_6_val.npz"
NOMANIFEST=1 edited "an npz deleted" "RAVEN_6_val.npz"
rm -f "$work/d/rave.json"; expect 3 "RAVEN_6_val.xml: RAVEN_6_val.npz: missing" "an npz deleted, the content check" --no-manifest
fresh; rm "$work/d/$c/RAVEN_6_val.xml" "$work/d/rave.json"
expect 3 "RAVEN_6_val.npz: no XML beside it" "an XML deleted, --no-manifest" --no-manifest
fresh; truncate -s 5000 "$work/d/$f/RAVEN_7_val.npz"
NOMANIFEST=1 edited "a truncated npz" "RAVEN_7_val.npz"
"$rave" generate -n 10 -c center,2x2 -o "$work/other" --seed 7 -j 2 >/dev/null 2>&1 || fail "generate seed 7"
fresh; for x in npz xml; do cp "$work/other/$c/RAVEN_8_test.$x" "$work/d/$c/RAVEN_8_test.$x"; done
edited "another dataset's problem" "RAVEN_8_test.xml: made again from rave.json's parameters, its XML differs"
fresh; npz_edit $c/RAVEN_2_train 'a["target"] = (a["target"] + 1) % 8'
edited "the target changed" "RAVEN_2_train.xml: made again from rave.json's parameters, its npz differs"
fresh; npz_edit $c/RAVEN_2_train 'a["predict"] = (a["predict"] + 1) % 8'
edited "predict changed" "made again from rave.json's parameters, its npz differs"
# Candidates 1 and 2 swapped in both files, the target moved with them: a consistent problem that
# the generator did not make.
fresh; "$py" - "$work/d/$f/RAVEN_1_train" <<'EOF'
import re, sys, numpy as np
stem = sys.argv[1]; xml = open(stem + ".xml").read()
panels = re.findall(r"<Panel>.*?</Panel>", xml); new = panels[:]; new[9], new[10] = panels[10], panels[9]
open(stem + ".xml", "w").write(xml.replace("".join(panels), "".join(new)))
a = dict(np.load(stem + ".npz")); a["image"][[9, 10]] = a["image"][[10, 9]]
t = int(a["target"]); a["target"] = np.array({1: 2, 2: 1}.get(t, t))
np.savez(stem + ".npz", **a)
EOF
edited "two candidates swapped in both files" "RAVEN_1_train.xml: made again from rave.json's parameters, its XML differs"
# An entity's colour changed in the XML and the npz re-rendered from it: both files agree.
fresh; "$py" -c "
import re, sys; p = sys.argv[1]; x = open(p).read()
open(p, 'w').write(re.sub(r'Color=\"(\d)\"', lambda m: 'Color=\"%d\"' % ((int(m.group(1)) + 1) % 10), x, count=1))" "$work/d/$c/RAVEN_5_train.xml"
"$rave" render "$work/d/$c/RAVEN_5_train.xml" -o "$work/d/$c/RAVEN_5_train.npz" >/dev/null || fail "render"
edited "an XML edited and its npz re-rendered" "RAVEN_5_train.xml: made again from rave.json's parameters"
# rave.json's version edited: the replay still runs, said in the output; a replaced problem fails.
fresh; edit_manifest 'm["rave_version"] = "0.0.1"'
expect 0 "made by rave 0.0.1, checked by rave .*replayed all the same" "rave_version edited alone"
for x in npz xml; do cp "$work/other/$c/RAVEN_8_test.$x" "$work/d/$c/RAVEN_8_test.$x"; done
edited "rave_version edited and a problem replaced" "RAVEN_8_test.xml: made again from rave.json's parameters, its XML differs (made by rave 0.0.1"
fresh; edit_manifest 'm["rave_version"] = "0.0.1"; m["seed"] = 7'
expect 3 "made again from rave.json's parameters" "rave_version and seed edited"
fresh; expect 0 "not replayed (--no-replay)" "--no-replay says so" --no-replay

finish "check gate"
