#!/usr/bin/env bash
# rave under torchrun (torch.distributed's launcher, with the store its agent hosts), on one
# machine and on two "machines": two network namespaces joined by a veth pair, one torchrun in
# each, meeting at a c10d rendezvous. Checks that 2 machines x 1 rank train to the same weights
# (within 1e-5) as one process with the doubled batch, that one torchrun with 2 ranks equals
# `rave train --nproc 2`, and that a rank killed on one machine stops the other with one clear
# line. Needs root (ip netns) and torchrun from the build's Python; exits 77 (ctest: skipped,
# with the reason on one line) where either is missing.
# Usage: cli_torchrun_test.sh RAVE_BINARY
set -u
# shellcheck source=../cli_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../cli_lib.sh"
torchrun="$(dirname "$py")/torchrun"
[[ -x "$torchrun" ]] || { echo "SKIPPED: no torchrun beside $py (scripts/setup.sh --full)"; exit 77; }
# CNN+LSTM+DRT: no dropout (whose masks depend on how the batch is cut), batch norm synchronised
# across the ranks. Adam with its default epsilon steps every weight by about the learning rate
# whatever the gradient's size, and the conv biases before batch norm have gradients of pure
# rounding (batch norm cancels them), so rounding alone would move them by 1e-4 a step; with
# epsilon 1 the step follows the gradient's size and what is left of rounding is ~1e-6.
train=(train -m lstm --drt -d "$work/data" -j 1 --loader-threads 1 --lr 0.001 --adam-epsilon 1)

[[ $(run "$rave" generate -n 10 -o "$work/data" -s 9 -j 2) == 0 ]] || fail "generate: $(cat "$work/err")"
[[ $(run "$rave" "${train[@]}" -o "$work/one" -e 2 -b 16) == 0 ]] || fail "one process: $(cat "$work/err")"
[[ $(run "$rave" "${train[@]}" -o "$work/half" -e 2 -b 8) == 0 ]] || fail "half batch: $(cat "$work/err")"

# The largest difference of the weights of two checkpoints.
weights_differ() {
  "$py" - "$1" "$2" <<'PY'
import sys, torch
a, b = (dict(torch.jit.load(p).named_parameters()) for p in sys.argv[1:3])
assert a.keys() == b.keys() and a, "other parameters"
print(max((a[k].double() - b[k].double()).abs().max().item() for k in a))
PY
}
differs_by() {  # differs_by RUN_FOLDER MIN MAX WHAT: the weights differ from one process's by [MIN, MAX]
  local d
  d=$(weights_differ "$work/one/last.pt" "$1/last.pt") || { fail "$4: cannot compare weights"; return; }
  "$py" -c "import sys; sys.exit(0 if $2 <= float('$d') <= $3 else 1)" || fail "$4: weights differ by $d"
}
close_to_one() { differs_by "$1" 0 1e-5 "$2"; }
# The comparison can fail: half the batch in one process leads elsewhere.
differs_by "$work/half" 1e-4 1e9 "one process with half the batch"

# One machine: torchrun with 2 ranks, as `rave train --nproc 2`.
"$torchrun" --nproc-per-node 2 --no-python "$rave" "${train[@]}" -o "$work/local" -e 2 -b 8 \
  >"$work/local.out" 2>"$work/local.err" || fail "torchrun on one machine: $(grep -v '^[WI][0-9]' "$work/local.err" | head -5)"
grep -q "batch 16 = 2 ranks x 8" "$work/local.out" || fail "torchrun header: $(head -1 "$work/local.out")"
close_to_one "$work/local" "torchrun, 2 ranks"

# Two machines.
if [[ $(id -u) != 0 ]] || ! command -v ip >/dev/null || ! ip netns list >/dev/null 2>&1; then
  ((failures == 0)) || finish "torchrun"
  echo "SKIPPED: the two-machine part needs root and ip netns (iproute2)"
  exit 77
fi
a="rave-$$-a" b="rave-$$-b"
cleanup_netns() { ip netns delete "$a" 2>/dev/null; ip netns delete "$b" 2>/dev/null; rm -rf "$work"; }
trap cleanup_netns EXIT
ip netns add "$a" && ip netns add "$b" || { fail "ip netns add"; finish "torchrun"; }
ip link add "ra$$" type veth peer name "rb$$"
ip link set "ra$$" netns "$a" && ip link set "rb$$" netns "$b"
ip -n "$a" addr add 10.231.7.1/24 dev "ra$$" && ip -n "$b" addr add 10.231.7.2/24 dev "rb$$"
for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
ip -n "$a" link set "ra$$" up && ip -n "$b" link set "rb$$" up
# Reached: a connection to a closed port of machine a is refused (not timed out).
ip netns exec "$b" "$py" -c "import socket; socket.create_connection(('10.231.7.1', 9), timeout=5)" 2>&1 |
  grep -q ConnectionRefused || fail "the two namespaces do not reach each other"

# machine NS OUT EPOCHS: one torchrun in namespace NS, one rank, rendezvous at machine a. The
# host name resolves to neither namespace's address, so each agent is told its own (--local-addr,
# which it hands its ranks as MASTER_ADDR) and machine a that it hosts the rendezvous (is_host).
machine() {
  local host=0 addr=10.231.7.2
  [[ $1 == "$a" ]] && host=1 addr=10.231.7.1
  timeout 300 ip netns exec "$1" "$torchrun" --nnodes 2 --nproc-per-node 1 --rdzv-backend c10d \
    --rdzv-endpoint 10.231.7.1:29431 --rdzv-id "rave-test-$2" --rdzv-conf "is_host=$host" \
    --local-addr "$addr" --max-restarts 0 --no-python \
    "$rave" "${train[@]}" -o "$work/$2-$1" -e "$3" -b 8 >"$work/$2-$1.out" 2>"$work/$2-$1.err"
}
machine "$a" two 2 & pa=$!
machine "$b" two 2 & pb=$!
wait $pa || fail "machine a: $(grep -v '^[WI][0-9]' "$work/two-$a.err" | head -5)"
wait $pb || fail "machine b: $(grep -v '^[WI][0-9]' "$work/two-$b.err" | head -5)"
ran=$(compgen -G "$work/two-*/last.pt")  # only rank 0 writes the run's files
[[ $(wc -w <<<"$ran") == 1 ]] && close_to_one "$(dirname "$ran")" "2 machines x 1 rank" ||
  fail "expected one last.pt: $(ls "$work"/two-*)"

# A rank killed on machine b: machine a's rank stops with one line saying so.
machine "$a" kill 100000 & pa=$!
machine "$b" kill 100000 & pb=$!
for _ in $(seq 1200); do compgen -G "$work/kill-*/metrics.jsonl" >/dev/null && break; sleep 0.1; done
victim=$(pgrep -f -- "-o $work/kill-$b " | while read -r p; do
  [[ $(readlink "/proc/$p/exe") == */rave-train ]] && echo "$p"; done | head -1)
[[ -n "$victim" ]] && kill -9 "$victim" || fail "no rank to kill on machine b"
wait $pb
wait $pa; code=$?
[[ $code != 0 && $code != 124 ]] || fail "machine a after the kill: exit code $code"
errors=$(grep -c "^rave: error:" "$work/kill-$a.err")
[[ $errors == 1 ]] && grep -q "^rave: error: rank [01] of 2: lost contact with another rank .*resume" "$work/kill-$a.err" ||
  fail "machine a after the kill: $(grep -v '^[WI][0-9]' "$work/kill-$a.err" | head -5)"

finish "torchrun"
