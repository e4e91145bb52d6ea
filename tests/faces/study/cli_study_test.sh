#!/usr/bin/env bash
# CLI contract of `rave study`: bad input is one error line with exit code 1 (2 for usage) and
# leaves no database behind: a missing set, a set with too few problems, a port out of range, no
# subcommand, export or report without a database, export or report against another study's
# database.
# Usage: cli_study_test.sh RAVE_BINARY
set -u
# shellcheck source=../../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../cli_lib.sh"
one_line() { [[ $(wc -l <"$work/err") == 1 ]] && grep -q "^rave: error: .*$1" "$work/err" || fail "$2: $(cat "$work/err")"; }

[[ $(run "$rave" study serve "$work/nowhere" --port 0) == 1 ]] || fail "missing set accepted"
one_line "nowhere" "missing set"
[[ $(run "$rave" generate -n 10 -o "$work/set" -s 2 -j 2) == 0 ]] || fail "generate: $(cat "$work/err")"
[[ $(run "$rave" study serve "$work/set" --per-config 5 --port 0) == 2 ]] || fail "5 of 2 test problems accepted"
one_line "fewer than 5 per configuration" "too few problems"
[[ ! -e "$work/set.study.sqlite" ]] || fail "a refused study left a database"
[[ $(run "$rave" study serve "$work/set" --port 70000) == 2 ]] || fail "port 70000 accepted"
[[ $(run "$rave" study) == 2 ]] || fail "no subcommand accepted"
[[ $(run "$rave" study export "$work/set" -o "$work/answers") == 1 ]] || fail "export without a database"
one_line "set.study.sqlite.*no study database" "export without a database"
[[ ! -e "$work/answers" ]] || fail "export without a database made its folder"
[[ $(run "$rave" study report "$work/set") == 1 ]] || fail "report without a database"
one_line "set.study.sqlite.*no study database" "report without a database"
# A database of another study (another seed) is refused, naming both, and is not changed.
"$rave" study serve "$work/set" --per-config 1 --port 0 --seed 1 >"$work/serve" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q "^rave study: http" "$work/serve" && break; sleep 0.1; done
kill -INT "$pid"; wait "$pid"
[[ -s "$work/set.study.sqlite" ]] || fail "serve made no database: $(cat "$work/serve")"
before=$(sha256sum "$work/set.study.sqlite")
[[ $(run "$rave" study export "$work/set" --per-config 1 --seed 2 -o "$work/answers") == 1 ]] || fail "another study's database accepted"
one_line "belongs to another study.*seed=1.*seed=2" "another study"
[[ "$(sha256sum "$work/set.study.sqlite")" == "$before" ]] || fail "the refused export changed the database"
[[ $(run "$rave" study export "$work/set" --per-config 1 --seed 1 -o "$work/answers") == 0 ]] || fail "export: $(cat "$work/err")"
grep -q "wrote 0 answers of 0 participants" "$work/out" || fail "export of an empty study: $(cat "$work/out")"
[[ $(run "$rave" study report "$work/set" --per-config 1 --seed 1) == 0 ]] || fail "report: $(cat "$work/err")"
grep -q "^no participant has a test answer in .* yet (0 enrolled)" "$work/out" || fail "report of an empty study: $(cat "$work/out")"
[[ $(run "$rave" study report "$work/set" --per-config 1 --seed 2) == 1 ]] || fail "report: another study's database accepted"
finish "study CLI"
