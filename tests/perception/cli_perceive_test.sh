#!/usr/bin/env bash
# CLI contract of solving from pixels and `rave perceive`: an .npz with no XML beside it is solved
# from its image (accuracy and the re-render share in the summary), --from-pixels ignores an XML,
# --show-parse prints the panels, `perceive -o` writes an XML without rules that solves alike, and
# images that are no RAVEN panels give one error line (wrong shape) or a `none` verdict (noise); the
# tables' disk cache; a render style's set generated, checked and solved from its pixels.
# Usage: cli_perceive_test.sh RAVE_BINARY
set -u
# shellcheck source=../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"

[[ $(run "$rave" perceive --help) == 0 ]] || fail "perceive --help"
grep -q "analysis by synthesis" "$work/out" || fail "perceive --help does not describe the method"
[[ $(run "$rave" generate -n 2 -o "$work/set" -a raven -s 31 -j 2) == 0 ]] || fail "generate: $(cat "$work/err")"

# Lone npz files (no XML beside them) are solved from their images.
mkdir -p "$work/pixels"
for f in "$work"/set/*/RAVEN_*.npz; do cp "$f" "$work/pixels/$(basename "$(dirname "$f")")_$(basename "$f")"; done
[[ $(run "$rave" solve "$work/pixels" -j 2) == 0 ]] || fail "solve lone npz: $(cat "$work/err")"
grep -q "^14 problems" "$work/out" || fail "expected 14 problems: $(cat "$work/out")"
grep -Eq "^re-render % +100.00" "$work/out" || fail "re-render row: $(cat "$work/out")"
grep -Eq "^with target +14 " "$work/out" || fail "targets from the npz: $(cat "$work/out")"

# --from-pixels ignores the XML beside; JSON lines carry what perception read.
[[ $(run "$rave" solve "$work/set" --from-pixels --json) == 0 ]] || fail "--from-pixels: $(cat "$work/err")"
[[ $(grep -c '"perception":{"recognised":true' "$work/out") == 14 ]] || fail "perception in JSON: $(head -c 400 "$work/out")"
[[ $(run "$rave" solve "$work/set" --from-pixels --use-rules) == 2 ]] || fail "--from-pixels --use-rules is a usage error"

one="$work/set/distribute_four/RAVEN_0_train"
[[ $(run "$rave" solve "$one.npz" --from-pixels --show-parse) == 0 ]] || fail "--show-parse: $(cat "$work/err")"
grep -q "perceived 2x2Grid: 16 of 16 panels re-render identically" "$work/out" || fail "parse header: $(cat "$work/out")"
grep -q "^  context 1: Grid: slot [0-3] Type" "$work/out" || fail "parse lines: $(cat "$work/out")"
answer=$(sed -n 's/.*: answer \([0-9]\).*/\1/p' "$work/out" | head -1)

# perceive -o writes RAVEN XML without rules; solved as symbols it gives the same answer.
[[ $(run "$rave" perceive "$one.npz" -o "$work/seen.xml") == 0 ]] || fail "perceive -o: $(cat "$work/err")"
grep -q "<Rules" "$work/seen.xml" && fail "a perceived XML has no rules"
[[ $(run "$rave" solve "$work/seen.xml") == 0 ]] || fail "solve perceived XML: $(cat "$work/err")"
grep -q ": answer $answer," "$work/out" || fail "perceived XML answers otherwise: $(cat "$work/out")"
[[ $(run "$rave" perceive "$work/set" -o "$work/seen") == 0 ]] || fail "perceive folder: $(cat "$work/err")"
[[ $(find "$work/seen" -name "*.xml" | wc -l) == 14 ]] || fail "perceive folder: expected 14 XML files: $(find "$work/seen")"

{
  mkdir -p "$work/bad"
  "$py" - "$one.npz" "$work/bad" <<'PY'
import sys
import numpy as np
src, out = sys.argv[1], sys.argv[2]
with np.load(src) as f:
    m = {k: f[k] for k in f.files}
img = m["image"]
np.savez(out + "/small.npz", **{**m, "image": img[:, ::2, ::2].copy()})            # 16 x 80 x 80
np.savez(out + "/pgm.npz", **{**m, "image": np.ascontiguousarray(img.transpose(1, 2, 0))})  # 160 x 160 x 16
rng = np.random.default_rng(5)
np.savez(out + "/noise.npz", **{**m, "image": rng.integers(0, 256, img.shape, dtype=np.uint8)})
PY
  [[ $(run "$rave" solve "$work/bad/small.npz") == 1 ]] || fail "wrong size: exit code"
  [[ $(wc -l <"$work/err") == 1 ]] && grep -q "small.npz.*image" "$work/err" || fail "wrong size: $(cat "$work/err")"
  [[ $(run "$rave" solve "$work/bad/pgm.npz") == 1 ]] || fail "PGM layout: exit code"
  [[ $(wc -l <"$work/err") == 1 ]] && grep -q "pgm.npz.*(16, 160, 160)" "$work/err" || fail "PGM layout: $(cat "$work/err")"
  [[ $(run "$rave" solve "$work/bad/noise.npz" --json) == 0 ]] || fail "noise: exit code $(cat "$work/err")"
  grep -q '"answer":null,' "$work/out" && grep -q '"verdict":"none"' "$work/out" && grep -q 'not RAVEN panels' "$work/out" ||
    fail "noise is not a none verdict: $(cat "$work/out")"
  [[ $(run "$rave" perceive "$work/bad/noise.npz" -o "$work/noise.xml") == 1 ]] || fail "perceive noise: exit code"
  [[ $(wc -l <"$work/err") == 1 && ! -e "$work/noise.xml" ]] || fail "perceive noise: $(cat "$work/err")"
}

# The tables come from a disk cache: made on the first run, read by the next (the same answers), a
# damaged file ignored and rewritten, none with RAVE_CACHE_DIR=off.
{
  export RAVE_CACHE_DIR="$work/cache"
  [[ $(run "$rave" solve "$work/set" --from-pixels) == 0 ]] || fail "cache: first run: $(cat "$work/err")"
  cp "$work/out" "$work/first"
  [[ $(find "$work/cache" -name "perception-tables-*.bin" | wc -l) == 7 ]] || fail "cache: expected 7 table files: $(ls "$work/cache")"
  [[ $(find "$work/cache" -name "render-templates-*.bin" | wc -l) == 7 ]] || fail "cache: expected 7 template files"
  [[ $(run "$rave" solve "$work/set" --from-pixels) == 0 ]] && diff <(grep -v " s$" "$work/first") <(grep -v " s$" "$work/out") >/dev/null ||
    fail "cache: the second run differs"
  table=$(find "$work/cache" -name "perception-tables-distribute_four-*.bin")
  templates=$(find "$work/cache" -name "render-templates-distribute_four-*.bin")
  "$py" - "$table" "$templates" <<'PY'
import sys
for p in sys.argv[1:]:
    b = bytearray(open(p, "rb").read()); b[len(b) // 2] ^= 0x55; open(p, "wb").write(bytes(b))
PY
  before=$(cksum <"$table")
  [[ $(run "$rave" solve "$work/set" --from-pixels) == 0 ]] && diff <(grep -v " s$" "$work/first") <(grep -v " s$" "$work/out") >/dev/null ||
    fail "cache: a damaged file changed the answers"
  [[ $(cksum <"$table") != "$before" ]] || fail "cache: a damaged file is not rewritten"
  unset RAVE_CACHE_DIR
  mkdir -p "$work/home"
  HOME="$work/home" XDG_CACHE_HOME="" run "$rave" solve "$one.npz" --from-pixels >/dev/null
  [[ -n $(find "$work/home/.cache/rave" -name "*.bin" 2>/dev/null) ]] || fail "cache: none under ~/.cache/rave"
  rm -rf "$work/home/.cache"
  HOME="$work/home" RAVE_CACHE_DIR=off run "$rave" solve "$one.npz" --from-pixels >/dev/null
  [[ ! -e "$work/home/.cache" ]] || fail "cache: RAVE_CACHE_DIR=off still wrote one"
}

# A render style: generated, its XML and rave.json name it, checked, and solved from its pixels.
{
  [[ $(run "$rave" generate -n 2 -o "$work/styled" -s 7 --style clean:size=128 --values 7 -c center_single,distribute_four) == 0 ]] ||
    fail "generate --style: $(cat "$work/err")"
  grep -q '"style": "clean:size=128,' "$work/styled/rave.json" || fail "rave.json names no style"
  grep -q 'style="clean:size=128,' "$work/styled/center_single/RAVEN_0_train.xml" || fail "the XML names no style"
  [[ $(run "$rave" check "$work/styled") == 0 ]] || fail "check of a styled set: $(cat "$work/out" "$work/err")"
  [[ $(run "$rave" solve "$work/styled" --from-pixels) == 0 ]] || fail "solve styled: $(cat "$work/err")"
  grep -Eq "^re-render % +100.00" "$work/out" && grep -Eq "^accuracy % +100.00" "$work/out" ||
    fail "styled from pixels: $(cat "$work/out")"
  [[ $(run "$rave" generate -n 1 -o "$work/refused" --style clean:size=64 --values 40) == 2 ]] || fail "an indistinguishable style: exit code"
  [[ $(wc -l <"$work/err") == 1 ]] && grep -q "cannot draw 40 levels.*differ by" "$work/err" || fail "refusal: $(cat "$work/err")"
}

finish "perceive CLI"
