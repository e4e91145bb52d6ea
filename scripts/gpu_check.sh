#!/usr/bin/env bash
# The GPU check: everything a GPU user runs, built and run on a machine with a CUDA PyTorch and no
# apt, within about 8 minutes. Builds `rave`, `rave-train` (rave train, rave eval), the neural tests
# and rave-step against the LibTorch inside that PyTorch (cmake/RaveTorch.cmake) with the machine's
# CUDA toolkit; runs the neural tests (the CUDA ones on the GPU); times rave's ResNet-18+DRT (224)
# and CNN+DRT steps against PyTorch eager in fp32 and bf16 (alternating,
# bench/neural/compare_pytorch.py); trains CNN+DRT for 300 steps in bf16 on cuda:0 (the trainer
# test); and runs `rave generate`, `rave train --device cuda:0 --precision bf16` and `rave eval` on a
# small dataset.
#
# What the build needs besides PyTorch (Boost, OpenCV, Z3, TBB, pugixml, zlib, libdeflate, CLI11,
# nlohmann-json, GoogleTest, Google Benchmark, OpenSSL, gloo's headers, pkgconf) travels as Debian 12
# packages, unpacked with dpkg-deb -x (or ar and tar) into .gpu/prefix; the dry run builds against
# the same prefix, so it also checks that the carried set is complete.
#   scripts/gpu_check.sh fetch      # here (apt): .gpu/debs/*.deb, about 40 MB
#   scripts/gpu_check.sh            # on the GPU machine (carry .gpu): PYTHON=python3 by default
#   scripts/gpu_check.sh dry-run    # here, on the CPU, against .venv's torch: the CUDA parts skip
# Output: everything on stdout; with OUT set, a copy in $OUT/gpu_check.log.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mode="${1:-run}"
gpu="$root/.gpu"
log() { echo "[gpu_check $(date +%T)] $*"; }
[[ -n "${OUT:-}" ]] && exec > >(tee "$OUT/gpu_check.log") 2>&1
case "$mode" in fetch|run|dry-run) ;; *) echo "usage: scripts/gpu_check.sh [fetch|run|dry-run]" >&2; exit 2 ;; esac

# The -dev packages (headers, CMake and pkg-config files, link names) and the libraries they name,
# from `ldd` of what the build makes: OpenCV's (OpenBLAS, gfortran, X11 and GL) load only to draw.
debs=(libboost1.74-dev libboost-graph1.74-dev libboost-graph1.74.0 libboost-regex1.74.0
      libopencv-core-dev libopencv-imgproc-dev libopencv-core406 libopencv-imgproc406
      libopenblas0-pthread libgfortran5 libquadmath0 libx11-6 libxcb1 libxau6 libxdmcp6 libbsd0
      libmd0 libglvnd0 libglx0 libz3-dev libz3-4 libtbb-dev libtbb12 libtbbmalloc2 libtbbbind-2-5 libhwloc15
      libpugixml-dev libpugixml1v5 zlib1g-dev libdeflate-dev libdeflate0 nlohmann-json3-dev
      libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev libbenchmark1debian libssl-dev libssl3
      libgloo-dev pkgconf pkgconf-bin libpkgconf3)

if [[ "$mode" == fetch ]]; then
  rm -rf "$gpu/debs" && mkdir -p "$gpu/debs"
  (cd "$gpu/debs" && apt-get download "${debs[@]}")
  du -sh "$gpu/debs"
  exit 0
fi

# 1. The Python with torch: the GPU machine's python3, here .venv's.
python="${PYTHON:-python3}"
[[ "$mode" == dry-run && -z "${PYTHON:-}" ]] && python="$root/.venv/bin/python"
read -r torch_version torch_cuda gpus < <("$python" -c \
  "import torch; print(torch.__version__, torch.version.cuda, torch.cuda.device_count())" 2>/dev/null ||
  echo "none none 0")
[[ "$torch_version" != none ]] || { echo "no torch in $python (set PYTHON)" >&2; exit 1; }
log "torch $torch_version (CUDA $torch_cuda, $gpus GPUs) in $python; $(c++ --version | head -1);" \
    "$(cmake --version | head -1); nvcc $(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p')"

# 2. The Debian packages, unpacked into .gpu/prefix (dpkg-deb where it exists, else ar + tar).
compgen -G "$gpu/debs/*.deb" >/dev/null || { echo "no .gpu/debs: run 'scripts/gpu_check.sh fetch' first (and carry .gpu)" >&2; exit 1; }
prefix="$gpu/prefix"
rm -rf "$prefix" && mkdir -p "$prefix"
for deb in "$gpu"/debs/*.deb; do
  if command -v dpkg-deb >/dev/null; then dpkg-deb -x "$deb" "$prefix"
  else (t=$(mktemp -d) && cd "$t" && ar x "$deb" && tar -xf data.tar.* -C "$prefix" && rm -rf "$t"); fi
done
libs="$prefix/usr/lib/x86_64-linux-gnu"
export LD_LIBRARY_PATH="$libs:$libs/openblas-pthread:${LD_LIBRARY_PATH:-}"
export PATH="$PATH:$prefix/usr/bin"  # pkgconf where the machine has no pkg-config
export PKG_CONFIG_PATH="$libs/pkgconfig:$prefix/usr/share/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$prefix"
export CPATH="$prefix/usr/include:${CPATH:-}"  # gloo's headers for c10d's ProcessGroupGloo.hpp
pkg_config=$(command -v pkg-config || command -v pkgconf)

# 3. Build what a GPU user runs.
build="$root/build-gpu"
[[ "$mode" == dry-run ]] && build="$root/build-gpu-dry"
generator=(); command -v ninja >/dev/null && generator=(-G Ninja)
ccache=ON; [[ "$mode" == run ]] && ccache=OFF
start=$SECONDS
mkdir -p "$build"
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DRAVE_CCACHE=$ccache \
  -DPython_EXECUTABLE="$python" -DCMAKE_PREFIX_PATH="$prefix/usr" -DPKG_CONFIG_EXECUTABLE="$pkg_config" \
  -DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$libs:$libs/openblas-pthread" -DRAVE_BUILD_PYTHON=OFF \
  >"$build/configure.log" 2>&1 || { tail -30 "$build/configure.log"; exit 1; }
grep -E "^-- rave:" "$build/configure.log" || true
jobs="${JOBS:-$(nproc)}"
cmake --build "$build" -j "$jobs" --target rave rave-train rave_neural_tests rave-step >"$build/build.log" 2>&1 ||
  { grep -E "error|Error" "$build/build.log" | head -20; echo "build failed ($build/build.log)" >&2; exit 1; }
log "built rave, rave-train, the neural tests and rave-step in $((SECONDS - start)) s"
rave="$build/apps/rave"

# 4. The neural tests, the CUDA ones on the GPU (skipped, one line each, without one).
"$build/tests/rave_neural_tests" --gtest_brief=1 2>&1 | tail -12 || true

# 5. rave's step against PyTorch eager, fp32 and bf16, alternating.
device=cuda:0 rounds=10 cases=(resnet+drt cnn+drt)
[[ "$mode" == dry-run ]] && device=cpu rounds=2 cases=(cnn+drt)  # ResNet at 224 in bf16 takes minutes on a CPU
PYTHONPATH="$root/bench/neural" "$python" bench/neural/compare_pytorch.py --rave-step "$build/bench/rave-step" \
  --device "$device" --threads 4 --rounds "$rounds" --precision fp32 bf16 --cases "${cases[@]}"

# 6. CNN+DRT on cuda:0 (bf16) for 300 steps: 100 epochs of the trainer test's 12 problems, batch 4.
epochs=100; [[ "$mode" == dry-run ]] && epochs=2
RAVE_CUDA_TRAIN_EPOCHS=$epochs "$build/tests/rave_neural_tests" --gtest_filter='*PinnedBatchesBf16AndTrainerOnCuda*' 2>&1 |
  grep -E "OK|FAILED|SKIPPED|Failure|epoch" | head -20

# 7. The command line as a GPU user types it: generate, train in bf16 on the GPU, evaluate.
work="$build/cli-check" && rm -rf "$work"
n=20 epochs=3; [[ "$mode" == dry-run ]] && n=10 epochs=1
"$rave" generate -n "$n" -o "$work/data" -j "$jobs" | tail -1
"$rave" train -m cnn --drt -d "$work/data" -o "$work/run" -e "$epochs" --device "$device" --precision bf16 \
  --loader-threads 4 | grep -E "^(training|epoch|CNN)"
"$rave" eval "$work/run/best.pt" -d "$work/data" --device "$device" --no-solver | grep -E "^\| (model|CNN)"
log "finished in $SECONDS s"
