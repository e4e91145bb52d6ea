#!/usr/bin/env bash
# rave for a GPU machine without apt, built here: build/apps/rave and rave-train (linked against
# .venv's CUDA torch wheel), OpenCV's drawing module, and the Debian libraries they load, in one
# archive (about 26 MB). The GPU machine needs only a python3 with the same torch version (its
# LibTorch and CUDA libraries are used from there) and a glibc at least Debian 12's; no compiler,
# no build (scripts/gpu_check.sh is the way that builds there instead).
#
#   scripts/gpu_bundle.sh [ARCHIVE]            # here: ARCHIVE, .gpu/bundle.tar.gz by default
#   # there:
#   mkdir -p /opt/rave && tar -xzf bundle.tar.gz -C /opt/rave && source /opt/rave/env.sh
#   RAVE=/opt/rave/bin/rave scripts/gpu_table2.sh measure
#
# env.sh sets LD_LIBRARY_PATH to the bundle's libraries, then the machine's torch/lib and its
# nvidia/*/lib, and refuses a torch of another version than the one the binaries were linked with.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
archive="$(realpath -m "${1:-$root/.gpu/bundle.tar.gz}")"
build="${BUILD:-$root/build}"
python="${PYTHON:-$root/.venv/bin/python}"
binaries=("$build/apps/rave" "$build/apps/rave-train")
module="$build/lib/librave_opencv.so"
for f in "${binaries[@]}" "$module"; do
  [[ -f "$f" ]] || { echo "gpu_bundle: $f is missing: build rave first (scripts/setup.sh --full)" >&2; exit 1; }
done
torch_version=$("$python" -c "import torch; print(torch.__version__)") ||
  { echo "gpu_bundle: no torch in $python (set PYTHON)" >&2; exit 1; }
[[ "$torch_version" == *+cu* ]] || echo "gpu_bundle: warning: torch $torch_version has no CUDA; the bundle will run on CPUs only" >&2

stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/lib"
cp "${binaries[@]}" "$stage/bin/" && strip "$stage/bin/"*
cp "$module" "$stage/lib/"  # rave looks for it in ../lib beside its binary
# The libraries the binaries and the module load, except the C and C++ runtimes (the machine's own,
# which must be as new) and torch's and CUDA's (the machine's torch wheel's).
ldd "${binaries[@]}" "$module" | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
  grep -Ev '/(libc|libm|libdl|librt|libpthread|libutil|libstdc\+\+|libgcc_s|ld-linux[^/]*)\.so' |
  grep -Ev '/(torch|nvidia)/' | while read -r lib; do cp -L "$lib" "$stage/lib/"; done
cat >"$stage/env.sh" <<EOF
# source me: the bundle's libraries, then the torch wheel's (linked against torch $torch_version).
_rave_bundle="\$(cd "\$(dirname "\${BASH_SOURCE[0]}")" && pwd)"
_rave_torch="\$(\${PYTHON:-python3} -c "import torch, os; print(torch.__version__, os.path.dirname(torch.__file__))")" ||
  { echo "rave bundle: no torch in \${PYTHON:-python3} (set PYTHON)" >&2; return 1; }
if [[ "\${_rave_torch%% *}" != "$torch_version" ]]; then
  echo "rave bundle: built against torch $torch_version, this machine has \${_rave_torch%% *}: build here (scripts/gpu_check.sh)" >&2
  return 1
fi
_rave_torch="\${_rave_torch#* }"
export LD_LIBRARY_PATH="\$_rave_bundle/lib:\$_rave_torch/lib\$(for d in "\$(dirname "\$_rave_torch")"/nvidia/*/lib "\$(dirname "\$_rave_torch")"/nvidia/cu*/lib; do [[ -d \$d ]] && printf ':%s' "\$d"; done)\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export RAVE="\$_rave_bundle/bin/rave"
if ldd "\$_rave_bundle/bin/rave-train" "\$_rave_bundle/bin/rave" | grep -q "not found"; then
  echo "rave bundle: libraries not found:" >&2; ldd "\$_rave_bundle/bin/rave-train" "\$_rave_bundle/bin/rave" | grep "not found" >&2
  return 1
fi
EOF
mkdir -p "$(dirname "$archive")"
tar -czf "$archive.tmp" -C "$stage" . && mv "$archive.tmp" "$archive"
echo "gpu_bundle: $archive ($(du -h "$archive" | cut -f1); $(ls "$stage/lib" | wc -l) libraries; torch $torch_version)"
