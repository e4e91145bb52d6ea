#!/usr/bin/env bash
# CLI smoke and contract tests for `rave`: exit codes, one-line errors naming the file and place,
# no partial files, -j1/-j2 sha256 identity, --resume, render parity with the reference, and the
# hand-over of rave train / rave eval to rave-train.
# Usage: cli_test.sh RAVE_BINARY FIXTURES_DIR   (tests/fixtures/reference, tests/fixtures/README.md)
set -u
rave="$1"
fixtures="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect CODE DESCRIPTION -- command...: runs it, checks the exit code and that stderr is one line.
expect() {
  local code="$1" what="$2"; shift 3
  "$@" >"$work/out" 2>"$work/err"
  local rc=$?
  [[ $rc == "$code" ]] || fail "$what: exit $rc, expected $code ($(head -c 300 "$work/err"))"
  if [[ $code != 0 ]]; then
    [[ $(wc -l <"$work/err") -le 1 ]] || fail "$what: error is not one line: $(cat "$work/err")"
    grep -q '^rave: error: ' "$work/err" || fail "$what: no 'rave: error:' prefix: $(cat "$work/err")"
  fi
}

expect 0 "help" -- "$rave" --help
grep -q generate "$work/out" || fail "--help does not list generate"
expect 2 "unknown flag" -- "$rave" generate -n 1 -o "$work/x" --bogus
expect 2 "unknown configuration" -- "$rave" generate -n 1 -o "$work/x" --configs hexagonal
grep -q "hexagonal" "$work/err" || fail "unknown configuration not named"
expect 2 "zero samples" -- "$rave" generate -n 0 -o "$work/x"
expect 2 "negative samples" -- "$rave" generate -n -4 -o "$work/x"
expect 2 "unknown answers" -- "$rave" generate -n 1 -o "$work/x" --answers magic
touch "$work/file"
expect 1 "save dir is a file" -- "$rave" generate -n 1 -o "$work/file/sub"
grep -q "$work/file/sub" "$work/err" || fail "unwritable save dir not named"

printf '<Data><Panels><Panel>' >"$work/bad.xml"
expect 1 "malformed xml render" -- "$rave" render "$work/bad.xml" -o "$work/bad.npz"
grep -q "bad.xml:1:" "$work/err" || fail "malformed XML error lacks file:line: $(cat "$work/err")"
[[ ! -e "$work/bad.npz" ]] || fail "render left a file behind"
expect 1 "malformed xml show" -- "$rave" show "$work/bad.xml" -o "$work/bad.png"
[[ ! -e "$work/bad.png" ]] || fail "show left a file behind"

# A full disk: one line naming the file, complete pairs kept, no temporary or half pair left.
mkdir -p "$work/full"
if mount -t tmpfs -o size=1m tmpfs "$work/full" 2>/dev/null; then
  expect 1 "full disk" -- "$rave" generate -n 5 -o "$work/full/d" -c center -j 1
  grep -q "No space left on device" "$work/err" || fail "full disk error unclear: $(cat "$work/err")"
  leftovers=$(find "$work/full" -name '.*tmp*' | wc -l)
  [[ $leftovers == 0 ]] || fail "full disk left $leftovers temporary files"
  for npz in "$work/full/d/center_single"/*.npz; do
    [[ -f "${npz%.npz}.xml" ]] || fail "full disk left a half pair: $npz"
  done
  umount "$work/full"
else
  echo "SKIP: cannot mount a small tmpfs here (not root)"
fi

# Same seed, 1 and 2 threads: identical sha256 for every file.
expect 0 "generate -j1" -- "$rave" generate -n 12 -o "$work/j1" -c center,3x3,O-IG -a iraven -j 1
expect 0 "generate -j2" -- "$rave" generate -n 12 -o "$work/j2" -c center,3x3,O-IG -a iraven -j 2
(cd "$work/j1" && find . -type f | sort | xargs sha256sum) >"$work/j1.sum"
(cd "$work/j2" && find . -type f | sort | xargs sha256sum) >"$work/j2.sum"
[[ $(wc -l <"$work/j1.sum") == 73 ]] || fail "expected 72 problem files and rave.json, got $(wc -l <"$work/j1.sum") files"
cmp -s "$work/j1.sum" "$work/j2.sum" || fail "-j1 and -j2 differ: $(diff "$work/j1.sum" "$work/j2.sum" | head -3)"

# --resume completes a run whose last pair was cut short.
rm "$work/j2/distribute_nine/RAVEN_11_train.xml"
expect 0 "resume" -- "$rave" generate -n 12 -o "$work/j2" -c center,3x3,O-IG -a iraven --resume
grep -q "wrote 1 problems (35 skipped" "$work/out" || fail "resume did not skip 35: $(cat "$work/out")"
(cd "$work/j2" && find . -type f | sort | xargs sha256sum) >"$work/j2.sum"
cmp -s "$work/j1.sum" "$work/j2.sum" || fail "resumed run differs from a clean run"

expect 0 "show npz" -- "$rave" show "$work/j1/center_single/RAVEN_0_train.npz" -o "$work/sheet.png"
[[ $(head -c 4 "$work/sheet.png" | od -An -c | tr -d ' ') == "211PNG" ]] || fail "show wrote no PNG"

# rave parse: a tree for a good sentence, a located caret error for a bad one.
expect 0 "parse good" -- "$rave" parse "Scene Singleton Grid Center_Single / / / /"
grep -q "Center_Single" "$work/out" || fail "parse printed no tree: $(cat "$work/out")"
"$rave" parse "Scene Singleton Grid Nope / / / /" >"$work/out" 2>"$work/err"
[[ $? == 1 ]] || fail "parse of a bad sentence did not exit 1"
grep -q "1:22" "$work/out" "$work/err" || fail "parse error lacks line:col: $(cat "$work/out" "$work/err")"

# rave convert: xml -> asig -> xml is the identity.
expect 0 "convert to asig" -- "$rave" convert "$work/j1/distribute_nine/RAVEN_4_train.xml" "$work/p.asig"
expect 0 "convert back" -- "$rave" convert "$work/p.asig" "$work/p.xml"
cmp -s "$work/p.xml" "$work/j1/distribute_nine/RAVEN_4_train.xml" || fail "xml -> asig -> xml changed bytes"
printf 'not an asig file\n' >"$work/bad.asig"
expect 1 "convert bad asig" -- "$rave" convert "$work/bad.asig" "$work/out.xml"
grep -q "bad.asig:1:" "$work/err" || fail "bad .asig error lacks file:line: $(cat "$work/err")"
[[ ! -e "$work/out.xml" ]] || fail "convert left a file behind"

# Many files per call: a whole folder to .asig and back is the identity; rendering a folder gives
# the generator's npz files byte for byte; one bad file among many is reported and the rest done.
expect 0 "convert folder to asig" -- "$rave" convert --to asig "$work/j1" -o "$work/asig"
[[ $(find "$work/asig" -name '*.asig' | wc -l) == 36 ]] || fail "convert --to asig wrote $(find "$work/asig" -name '*.asig' | wc -l) files, not 36"
expect 0 "convert folder back" -- "$rave" convert --to xml "$work/asig" -o "$work/back"
for xml in "$work/j1"/*/*.xml; do
  rel="${xml#"$work/j1/"}"
  cmp -s "$xml" "$work/back/$rel" || fail "convert folder round trip changed $rel"
done
expect 0 "render folder" -- "$rave" render "$work/j1/center_single" -o "$work/rendered/"
for npz in "$work/j1/center_single"/*.npz; do
  cmp -s "$npz" "$work/rendered/$(basename "$npz")" || fail "render folder: $(basename "$npz") differs from generate's"
done
mkdir -p "$work/mixed" && cp "$work/j1/center_single/RAVEN_0_train".* "$work/bad.xml" "$work/mixed/"
"$rave" convert --to asig "$work/mixed" -o "$work/mixed-out" >"$work/out" 2>"$work/err"
[[ $? == 1 ]] || fail "convert with one bad file did not exit 1"
[[ -f "$work/mixed-out/RAVEN_0_train.asig" ]] || fail "one bad file stopped the good one"
grep -q "bad.xml:1:" "$work/err" || fail "bad file among many not named: $(cat "$work/err")"
expect 1 "convert refuses to overwrite" -- "$rave" convert --to asig "$work/j1/center_single/RAVEN_0_train.xml" -o "$work/mixed-out"
expect 2 "convert to an unknown form" -- "$rave" convert --to png "$work/j1/center_single" -o "$work/x"

# Re-rendering a reference problem from its XML alone gives the original npz byte for byte (its
# sha256 in the fixtures' manifest; `rave render` writes predict = target, as this problem has).
name="raven/distribute_nine/RAVEN_3_train"
line="$(grep -F "\"file\": \"$name\"" "$fixtures/manifest.json")"
field() { sed -E "s/.*\"$1\": \"?([^\",]*)\"?[,}].*/\\1/" <<<"$line"; }
if [[ -z "$line" ]]; then
  fail "$name is not in $fixtures/manifest.json"
elif [[ "$(field target)" != "$(field predict)" ]]; then
  fail "$name: predict differs from target; pick a problem whose original predict equals its target"
else
  expect 0 "render reference" -- "$rave" render "$fixtures/$name.xml" -o "$work/ref.npz" --target "$(field target)"
  [[ "$(sha256sum <"$work/ref.npz" | cut -d' ' -f1)" == "$(field npz_sha256)" ]] ||
    fail "re-rendered reference npz differs from the original (sha256)"
fi

# Variants (docs/variants.md): bad options are one line and exit 2; a 4 x 4 set has 23 context
# panels in its files, three shards make the one-machine set, rave show draws it, the solver refuses it.
expect 2 "grid 2" -- "$rave" generate -n 1 -o "$work/v" --grid 2
grep -q -- "--grid 2" "$work/err" || fail "--grid 2 not named"
expect 2 "grid 11" -- "$rave" generate -n 1 -o "$work/v" --grid 11
expect 2 "values 0" -- "$rave" generate -n 1 -o "$work/v" --values 0
expect 2 "unknown regime" -- "$rave" generate -n 1 -o "$work/v" --regime sideways
expect 2 "unknown hold-out attribute" -- "$rave" generate -n 1 -o "$work/v" --regime held-out-pairs --hold-out Hue:Progression
grep -q "Hue" "$work/err" || fail "unknown hold-out attribute not named"
expect 2 "hold-out without regime" -- "$rave" generate -n 1 -o "$work/v" --hold-out Color:Progression
expect 2 "undrawable values" -- "$rave" generate -n 1 -o "$work/v" --values 100
grep -q -- "--symbolic-only" "$work/err" || fail "undrawable values do not point to --symbolic-only"
expect 2 "bad shard" -- "$rave" generate -n 1 -o "$work/v" --shard 4/3
[[ ! -e "$work/v" ]] || fail "a refused variant run created its folder"
expect 0 "generate grid 4" -- "$rave" generate -n 6 -o "$work/g4" -c center,O-IG --grid 4 --confounders 2 -j 2
[[ $(grep -o '<Panel>' "$work/g4/center_single/RAVEN_0_train.xml" | wc -l) == 23 ]] ||
  fail "a 4 x 4 problem's XML does not hold 15 + 8 panels"
for k in 1 2 3; do
  expect 0 "shard $k/3" -- "$rave" generate -n 6 -o "$work/g4s" -c center,O-IG --grid 4 --confounders 2 --shard "$k/3"
done
diff -r "$work/g4" "$work/g4s" >/dev/null || fail "three shards differ from the one-machine run"
expect 0 "symbolic values 100" -- "$rave" generate -n 3 -o "$work/v100" -c 2x2 --grid 5 --values 100 --symbolic-only
expect 0 "show grid 4" -- "$rave" show "$work/g4/center_single/RAVEN_0_train.xml" -o "$work/g4.png"
[[ -s "$work/g4.png" ]] || fail "show drew no 4 x 4 sheet"
expect 1 "show values 100" -- "$rave" show "$(ls "$work/v100/distribute_four/"*.xml | head -1)" -o "$work/v100.png"
grep -q "RAVEN_.*xml: has 100 levels per attribute" "$work/err" || fail "show values 100: the refusal does not name the file"
[[ ! -e "$work/v100.png" ]] || fail "show drew a problem whose levels have no drawing"
expect 0 "solve a 4 x 4 set" -- "$rave" solve "$work/g4" --json
[[ $(grep -c '"answer"' "$work/out") == 12 ]] || fail "rave solve did not answer the 12 problems of the 4 x 4 set"
"$rave" check "$work/g4" >"$work/out" 2>"$work/err"
grep -q "rave.json: made by rave .* 24 files listed, 0 differ" "$work/out" || fail "rave check did not verify rave.json"
printf 'x' >>"$work/g4/center_single/RAVEN_1_train.xml"
"$rave" check "$work/g4" >"$work/out" 2>"$work/err"
[[ $? == 3 ]] || fail "rave check of a set with a changed file did not exit 3"
grep -q "RAVEN_1_train.xml: .* bytes listed" "$work/out" || fail "rave check did not name the changed file"

# Fast start: the symbolic commands never load OpenCV (its drawing module is loaded on first draw).
loaded_opencv() { LD_DEBUG=libs "$@" 2>&1 >/dev/null | grep -c 'calling init: .*libopencv_core'; }
xml="$work/j1/distribute_nine/RAVEN_4_train.xml"
[[ $(loaded_opencv "$rave" --version) == 0 ]] || fail "rave --version loaded OpenCV"
[[ $(loaded_opencv "$rave" convert "$xml" "$work/fast.asig") == 0 ]] || fail "rave convert to .asig loaded OpenCV"
[[ $(loaded_opencv "$rave" solve "$xml") == 0 ]] || fail "rave solve on an XML file loaded OpenCV"
[[ $(loaded_opencv "$rave" show "$xml" -o "$work/fast.png") -ge 1 ]] || fail "rave show drew without OpenCV"
RAVE_OPENCV_MODULE="$work/nowhere.so" expect 1 "drawing module missing" -- "$rave" show "$xml" -o "$work/nomodule.png"
grep -q "drawing module" "$work/err" || fail "a missing drawing module is not named: $(cat "$work/err")"
[[ ! -e "$work/nomodule.png" ]] || fail "show left a file behind without its drawing module"

# rave train / rave eval replace rave by rave-train found beside it, with the arguments as given,
# the exit code kept, and glibc's 256 MB top pad in the environment unless the user set one
# (faces/apps/forward.cpp). A stand-in rave-train reports what it received.
mkdir -p "$work/fwd"
cp "$rave" "$work/fwd/rave"
cat >"$work/fwd/rave-train" <<'SH'
#!/bin/sh
echo "${MALLOC_TOP_PAD_:-unset}|$*"
exit 7
SH
chmod +x "$work/fwd/rave-train"
env -u MALLOC_TOP_PAD_ "$work/fwd/rave" train -e 3 --out "a b" >"$work/out" 2>"$work/err"
rc=$?
[[ $rc == 7 ]] || fail "rave train: exit $rc, not rave-train's 7"
[[ "$(cat "$work/out")" == "268435456|train -e 3 --out a b" ]] ||
  fail "rave train forwarded: $(cat "$work/out")"
MALLOC_TOP_PAD_=1234 "$work/fwd/rave" eval --help >"$work/out" 2>"$work/err"
[[ "$(cat "$work/out")" == "1234|eval --help" ]] || fail "rave eval forwarded: $(cat "$work/out")"
rm "$work/fwd/rave-train"
expect 1 "rave train without rave-train" -- "$work/fwd/rave" train -e 1
grep -q "rave-train beside rave" "$work/err" || fail "a missing rave-train is not named: $(cat "$work/err")"

[[ $failures == 0 ]] && echo "all CLI checks passed"
exit $((failures > 0))
