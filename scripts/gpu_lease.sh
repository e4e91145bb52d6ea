#!/usr/bin/env bash
# Issue 45's GPU work in 15-minute leases (scripts/neural/lease.plan, ordered by value): each lease
# trains what is pending for LEASE_SECONDS, and what it leaves comes back to resume on the next one
# (docs/neural.md#what-the-leases-run). A lease's machine starts bare and only 64 MiB travel each way,
# so rave goes as a bundle (scripts/gpu_bundle.sh), the datasets are regenerated there from their
# seeds, and the state comes back as at most 4 pieces of 15 MiB: every run's small files, and the
# checkpoints of unfinished runs in plan order while they fit STATE_MB.
#
#   scripts/gpu_lease.sh prepare          # here: .gpu/bundle.tar.xz, .gpu/ref/raven (the paper's code,
#                                         # from the fetched mirror), .gpu/state from out/lease
#   # the device tool, carry [".gpu"], timeout_s 600:
#   #   scripts/gpu_lease.sh run          # there: untar, generate, train until LEASE_SECONDS, pack to $OUT
#   scripts/gpu_lease.sh import DIR       # here: the files the lease returned (files_at) -> out/lease,
#                                         # its evidence in out/lease/published (for docs/img/lease)
#   scripts/gpu_lease.sh dry-run          # here, on the CPU: the same chain on 10 problems per configuration
#
# Environment: LEASE_SECONDS (420: training stops then, leaving time to pack), SLOTS (6 runs side by
# side on the GPU), STATE_MB (30: with the 18 MB bundle and the 13 MB repository, under the 64 MiB that
# travel), ONLY (campaign.py --only patterns), DIR (the campaign folder).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mode="${1:-run}"
gpu="$root/.gpu"
plan="$root/scripts/neural/lease.plan"
python="${PYTHON:-python3}"
log() { echo "[gpu_lease $(date +%T)] $*"; }

# The run folder's files that travel: everything but checkpoints, then (unfinished runs) checkpoints.
pack_state() {  # DIR DEST
  local dir="$1" dest="$2" budget=$((${STATE_MB:-30} * 1024 * 1024)) used=0 list
  list="$(mktemp)"
  # every run's small files, the predictions and tables of finished runs, and each dataset's rave.json
  # (what `campaign.py import` checks the data by; the files are regenerated from the seed)
  (cd "$dir" && find runs predictions tables published logs sittings.jsonl imports.jsonl campaign.log status.md \
     data/*/rave.json -type f ! -name '*.pt' ! -name '*.pth' ! -name '*.tmp' 2>/dev/null) >"$list" || true
  # the initial weights some runs start from (--init-weights init/...: the campaign folder's)
  (cd "$dir" && find init -type f ! -name '*.tmp' 2>/dev/null) >>"$list" || true
  while read -r size files; do
    if ((used + size <= budget)); then
      printf '%s\n' $files >>"$list"; used=$((used + size))
    else
      log "left behind (over STATE_MB; restarts next lease): $files"
    fi
  done < <("$python" "$root/scripts/neural/plan.py" pending-checkpoints "$plan" "$dir")
  tar -czf "$dest.tar.gz" -C "$dir" -T "$list"
  split -b 15M -d -a 1 "$dest.tar.gz" "$dest.part"
  rm -f "$dest.tar.gz" "$list"
  ls -la "$dest".part*
}

unpack_state() {  # SRC-PREFIX DIR
  compgen -G "$1.part*" >/dev/null || { log "no state to resume: a first lease"; return 0; }
  mkdir -p "$2"
  cat "$1".part* | tar -xzf - -C "$2"
  log "resumed: $(find "$2/runs" -name metrics.jsonl | wc -l) runs"
}

case "$mode" in
  prepare)
    # the bundle recompressed with xz: 18 MB instead of 26 (libz3 is most of it); made again only when
    # the build is newer
    if [[ ! "$gpu/bundle.tar.xz" -nt build/apps/rave-train || ! "$gpu/bundle.tar.xz" -nt build/apps/rave ]]; then
      scripts/gpu_bundle.sh "$gpu/bundle.tar.gz"
      stage="$(mktemp -d)" && tar -xzf "$gpu/bundle.tar.gz" -C "$stage"
      tar -C "$stage" -cf - . | xz -9e -T1 >"$gpu/bundle.tar.xz.tmp" && mv "$gpu/bundle.tar.xz.tmp" "$gpu/bundle.tar.xz"
      rm -rf "$stage" "$gpu/bundle.tar.gz"
    fi
    mirror="${RAVEN_MIRROR:-/work/.mirror/WellyZhang+RAVEN/repo}"
    rm -rf "$gpu/ref" && mkdir -p "$gpu/ref/raven"
    git -C "$mirror" archive HEAD src/model assets/embedding.npy | tar -x -C "$gpu/ref/raven"
    dir="${DIR:-$root/out/lease}"
    rm -f "$gpu"/state.part*
    [[ -d "$dir/runs" ]] && pack_state "$dir" "$gpu/state"
    du -sh "$gpu" ;;
  run|dry-run)
    dir="${DIR:-/tmp/lease}"
    out="${OUT:-$root/out/lease-returned}" && mkdir -p "$out"
    if [[ "$mode" == run ]]; then
      mkdir -p /opt/rave && tar -xJf "$gpu/bundle.tar.xz" -C /opt/rave
      # shellcheck disable=SC1091
      source /opt/rave/env.sh
      rave="$RAVE"
    else
      rave="$root/build/apps/rave"
    fi
    unpack_state "$gpu/state" "$dir"
    export RAVE_REFERENCE_CODE="$gpu/ref/raven" PYTHONUNBUFFERED=1
    lease_plan="$plan"
    if [[ "$mode" == dry-run ]]; then  # 10 problems per configuration, 2 epochs, on the CPU
      lease_plan="$dir/dry.plan" && mkdir -p "$dir"
      sed -e 's/-n 10000/-n 10/' -e 's/--device cuda/--device cpu/' -e 's/--precision bf16//' \
          -e '/^run /s/ -e [0-9]*//' -e 's/^\(run .*\)$/\1 -e 2/' -e 's/^\(reference .*\)$/\1 --epochs 2 --workers 2/' \
          -e 's/--cache-mb 48000/--cache-mb 512/' -e '/^published /d' "$plan" >"$lease_plan"
    fi
    start=$SECONDS
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>/dev/null || true
    set +e
    timeout --signal=TERM "${LEASE_SECONDS:-420}" "$python" scripts/neural/campaign.py run --plan "$lease_plan" \
      --out "$dir" --rave "$rave" --slots "${SLOTS:-6}" --reference-code "$gpu/ref/raven" \
      ${ONLY:+--only $ONLY} 2>&1 | tee "$out/campaign.log"
    set -e
    log "trained for $((SECONDS - start)) s"
    RAVE_EVAL_DEVICE="${RAVE_EVAL_DEVICE:-cpu}" "$python" scripts/neural/campaign.py report --plan "$lease_plan" \
      --out "$dir" --rave "$rave" --reference-code "$gpu/ref/raven" >/dev/null 2>&1 || log "report failed"
    # the evidence of finished runs, made where the data is (docs/neural.md#evidence)
    "$python" scripts/neural/campaign.py publish "$dir/published" --plan "$lease_plan" --out "$dir" --rave "$rave" \
      --reference-code "$gpu/ref/raven" >/dev/null 2>&1 || log "publish failed"
    "$python" scripts/neural/campaign.py status --plan "$lease_plan" --out "$dir" | tee "$out/status.md"
    plan="$lease_plan" pack_state "$dir" "$out/state"
    log "packed in $((SECONDS - start)) s" ;;
  import)
    src="${2:?usage: scripts/gpu_lease.sh import DIR (the files the lease returned)}"
    dir="${DIR:-$root/out/lease}" && tmp="$(mktemp -d)"
    unpack_state "$src/state" "$tmp"
    "$python" scripts/neural/campaign.py import "$tmp" --plan "$plan" --out "$dir"
    if [[ -d "$tmp/published" ]]; then  # the lease's evidence: commit it with its tables
      rm -rf "$dir/published" && cp -r "$tmp/published" "$dir/published"
      log "evidence of the finished runs in $dir/published: rescore.py --check it, copy it to docs/img/lease"
    fi
    rm -rf "$tmp" ;;
  *) echo "usage: scripts/gpu_lease.sh prepare|run|import DIR|dry-run" >&2; exit 2 ;;
esac
