#!/usr/bin/env bash
# The GPU check of the neural part, prepared to run on a machine without apt that has a CUDA
# PyTorch installation (its LibTorch, CMake, a C++ compiler, nvcc's CUDA runtime), within about 8
# minutes: build the neural targets (-DRAVE_NEURAL_ONLY=ON: cmake/RaveNeuralOnly.cmake) against
# that LibTorch (2.x) from the same sources as Debian's LibTorch 1.13 build, run the neural tests
# (the CUDA ones on the GPU), time a ResNet-18+DRT 224 training step in fp32 and bf16 against the
# same model in PyTorch eager (alternating, bench/neural/compare_pytorch.py), and train CNN+DRT for
# 300 steps on cuda:0 (the trainer test on synthetic problems, RAVE_CUDA_TRAIN_EPOCHS=100).
#
# The other dependencies (header-only Boost, TBB, pugixml, zlib, libdeflate, pkg-config,
# nlohmann-json, GoogleTest, gloo's headers) travel as Debian 12 packages, unpacked with dpkg-deb
# -x (or ar and tar) into .gpu/prefix inside the repository.
#   scripts/gpu_check.sh fetch            # here (Debian, apt): .gpu/debs/*.deb (about 15 MB)
#   scripts/gpu_check.sh                  # on the GPU machine (carry .gpu): build, tests, timing, training
#   scripts/gpu_check.sh dry-run          # here, on the CPU: the same steps against the LibTorch that
#                                         # `python3 -c 'import torch'` finds (or Debian's), CUDA parts skipped
# Output: everything on stdout; with OUT set, a copy in $OUT/gpu_check.log.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mode="${1:-run}"
gpu="$root/.gpu"
log() { echo "[gpu_check $(date +%T)] $*"; }
[[ -n "${OUT:-}" ]] && exec > >(tee "$OUT/gpu_check.log") 2>&1

debs=(libboost1.74-dev libtbb-dev libtbb12 libtbbmalloc2 libpugixml-dev libpugixml1v5 zlib1g-dev libdeflate-dev
      libdeflate0 pkgconf pkgconf-bin libpkgconf3 nlohmann-json3-dev libgtest-dev libgloo-dev)

if [[ "$mode" == fetch ]]; then
  mkdir -p "$gpu/debs"
  (cd "$gpu/debs" && apt-get download "${debs[@]}")
  du -sh "$gpu"
  exit 0
fi

# 1. LibTorch: the one inside the Python installation (PyTorch 2.x on the GPU machine).
python="${PYTHON:-python3}"
# A first python3 without torch (a pyenv shim, say) gives way to the system's, which has Debian's.
if [[ -z "${PYTHON:-}" ]] && ! "$python" -c 'import torch' 2>/dev/null &&
   /usr/bin/python3 -c 'import torch' 2>/dev/null; then python=/usr/bin/python3; fi
read -r torch_prefix torch_version torch_cuda < <("$python" -c \
  "import torch; print(torch.utils.cmake_prefix_path, torch.__version__, torch.version.cuda)" 2>/dev/null ||
  echo "/usr none none")
log "LibTorch $torch_version (CUDA $torch_cuda) at $torch_prefix; $(c++ --version | head -1); $(cmake --version | head -1)"
nccl_include="$("$python" -c 'import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], "include"))' \
  2>/dev/null || true)"

# 2. The Debian packages, unpacked into .gpu/prefix (dpkg-deb where it exists, else ar + tar).
prefix="$gpu/prefix"
if [[ "$mode" == run ]]; then
  compgen -G "$gpu/debs/*.deb" >/dev/null || { echo "no .gpu/debs: run 'scripts/gpu_check.sh fetch' first, carry .gpu" >&2; exit 1; }
  mkdir -p "$prefix"
  for deb in "$gpu"/debs/*.deb; do
    if command -v dpkg-deb >/dev/null; then dpkg-deb -x "$deb" "$prefix"
    else (t=$(mktemp -d) && cd "$t" && ar x "$deb" && tar -xf data.tar.* -C "$prefix" && rm -rf "$t"); fi
  done
  export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}"
  export PATH="$prefix/usr/bin:$PATH" PKG_CONFIG_PATH="$prefix/usr/lib/x86_64-linux-gnu/pkgconfig:$prefix/usr/share/pkgconfig"
  export PKG_CONFIG_SYSROOT_DIR="$prefix" CPATH="$prefix/usr/include:${CPATH:-}"
  search="$torch_prefix;$prefix/usr"
else
  search="$torch_prefix"
fi

# 3. Build the neural targets only: the library, its tests, rave-step.
build="$root/build-gpu"
[[ "$mode" == dry-run ]] && build="$root/build-gpu-dry"
generator=(); command -v ninja >/dev/null && generator=(-G Ninja)
start=$SECONDS
ccache=ON; [[ "$mode" == run ]] && ccache=OFF
mkdir -p "$build"
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DRAVE_NEURAL_ONLY=ON -DRAVE_CCACHE=$ccache \
  -DCMAKE_PREFIX_PATH="$search" -DRAVE_NCCL_HINTS="$nccl_include" >"$build/configure.log" 2>&1 ||
  { tail -30 "$build/configure.log"; exit 1; }
grep -E "rave:|Torch" "$build/configure.log" || true
jobs="${JOBS:-$(nproc)}"
cmake --build "$build" -j "$jobs" --target rave_neural_tests rave-step 2>&1 | grep -E "error|Linking" || true
[[ -x "$build/rave_neural_tests" ]] || { echo "build failed" >&2; exit 1; }
log "built in $((SECONDS - start)) s"

# 4. The neural tests: all of them on a GPU machine's CPU too, the CUDA ones on the GPU.
filter='*'; [[ "$mode" == dry-run ]] && filter='*CUDA*:*Distributed*:*SharedMemory*:FusedAdam*:AllModels/LearningTest.*/CNN*'
"$build/rave_neural_tests" --gtest_filter="$filter" --gtest_brief=1 2>&1 | tail -15 || true

# 5. ResNet-18+DRT at 224, batch 32: rave's step against PyTorch eager, fp32 and bf16, alternating.
device=cuda:0; [[ "$mode" == dry-run ]] && device=cpu
rounds=10 cases=(resnet+drt cnn+drt)
[[ "$mode" == dry-run ]] && rounds=2 cases=(cnn+drt)  # ResNet at 224 in bf16 takes minutes on a CPU
PYTHONPATH="$root/bench/neural" "$python" bench/neural/compare_pytorch.py --rave-step "$build/rave-step" \
  --device "$device" --threads 4 --rounds "$rounds" --precision fp32 bf16 --cases "${cases[@]}"

# 6. CNN+DRT on cuda:0 (bf16) for 300 steps: 100 epochs of the trainer test's 12 problems, batch 4.
epochs=100; [[ "$mode" == dry-run ]] && epochs=2
RAVE_CUDA_TRAIN_EPOCHS=$epochs "$build/rave_neural_tests" --gtest_filter='*PinnedBatchesBf16AndTrainerOnCuda*' 2>&1 |
  grep -E "OK|FAILED|SKIPPED|Failure|epoch" | head -20
log "finished in $SECONDS s"
