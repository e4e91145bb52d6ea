#!/usr/bin/env bash
# Sets rave up on a fresh Debian 12 machine. Safe to re-run: apt, pip and the build are incremental.
#   scripts/setup.sh          the quick path: Debian's build packages, a virtual environment .venv
#                             with the core Python packages (requirements.txt, from PyPI), and build/
#                             with the symbolic commands and the Python package: no LibTorch, so
#                             `build/apps/rave demo` works in minutes
#   scripts/setup.sh --full   everything: also torch 2.11 from PyPI (its CUDA build carries the
#                             LibTorch that neural/ links; about 3.5 GB), pyarrow and datasets,
#                             gloo's headers, clang and clang-format, and the whole build: rave-train,
#                             the tests, rave-bench (README's test command). Once torch is in .venv,
#                             a plain re-run keeps building everything.
# Environment: RAVE_SKIP_APT=1 (no apt-get), RAVE_CMAKE_ARGS (more configure flags), RAVE_JOBS,
# RAVE_PYTHON (the interpreter .venv is made from; default: the python3 first on PATH).
# The build tree's Python package (build/python) is put on .venv's path by a .pth file, so
# `.venv/bin/python -c 'import rave'` follows every rebuild; `pip install .` installs it for real.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

full=0
for arg in "$@"; do
  case "$arg" in
    --full) full=1 ;;
    -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup.sh: unknown argument '$arg' (try --help)" >&2; exit 2 ;;
  esac
done
venv="$root/.venv"
[[ -x "$venv/bin/python" ]] && "$venv/bin/python" -c 'import torch' 2>/dev/null && full=1

core_packages=(
  build-essential cmake pkg-config ccache git
  libboost-dev libboost-graph-dev          # Spirit X3, Boost.Graph
  libopencv-imgproc-dev                    # the renderer (OpenCV 4.6, as the original)
  libpugixml-dev zlib1g-dev libdeflate-dev # XML, npz and PNG files (libdeflate: CRC-32)
  libtbb-dev                               # parallel generation and data pipeline
  libcli11-dev nlohmann-json3-dev          # the CLI and JSON Lines output
  libz3-dev                                # the Z3 solver backend
  libcpp-httplib-dev libsqlite3-dev        # rave study serve: its HTTP server and its database
)
full_packages=(
  libgloo-dev                              # c10d Gloo's declarations (gloo itself is inside libtorch_cpu)
  libgtest-dev libgmock-dev libbenchmark-dev   # tests and rave-bench
  libssl-dev                               # SHA-256 of the test fixtures (tests only)
  iproute2                                 # the two-machine torchrun test (network namespaces)
  clang libclang-rt-14-dev                 # the readers' fuzzers (libFuzzer)
  clang-format                             # the house format, checked by CI (scripts/check_format.sh)
  clang-tidy                               # the house checks on changed files (scripts/tidy_changed.sh)
  chromium chromium-driver                 # the human study's browser test (tests/faces/study/browser_test.py)
)

python="${RAVE_PYTHON:-$(command -v python3 || echo /usr/bin/python3)}"
packages=("${core_packages[@]}")
((full)) && packages+=("${full_packages[@]}")
# Debian's own Python makes a venv and builds extensions only with these.
[[ "$(readlink -f "$python")" == /usr/bin/python3* ]] && packages+=(python3-venv python3-dev)

if [[ "${RAVE_SKIP_APT:-0}" != 1 ]]; then
  sudo=""
  [[ "$(id -u)" -ne 0 ]] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${packages[@]}"
fi

# The virtual environment, from PyPI with the pins of requirements.txt.
if [[ ! -x "$venv/bin/python" ]]; then
  "$python" -m venv "$venv" || { echo "setup.sh: '$python -m venv' failed (set RAVE_PYTHON)" >&2; exit 1; }
fi
pip=("$venv/bin/python" -m pip install -q --disable-pip-version-check)
# pip takes no extras in a constraints file: the core pins are read without them (lm-eval[hf] -> lm-eval).
"${pip[@]}" -c <(sed 's/\[[^]]*\]//' requirements.txt) numpy pillow pytest scikit-build-core pybind11 scikit-learn scipy joblib \
  threadpoolctl
if ((full)); then
  echo "setup.sh: torch and the other neural packages from PyPI into .venv (about 3.5 GB on the first run)"
  "${pip[@]}" -r requirements.txt
fi

jobs="${RAVE_JOBS:-$(nproc)}"
neural=OFF; tests=OFF
((full)) && neural=ON tests=ON
# shellcheck disable=SC2086
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DPython_EXECUTABLE="$venv/bin/python" \
  -DRAVE_BUILD_NEURAL=$neural -DBUILD_TESTING=$tests -DRAVE_BUILD_BENCH=$tests ${RAVE_CMAKE_ARGS:-}
if ((full)); then
  cmake --build build -j "$jobs"
else
  targets=(rave)
  cmake --build build --target help | grep -q ' rave_python$' && targets+=(rave_python)
  cmake --build build -j "$jobs" --target "${targets[@]}"
fi
echo "rave built: $root/build/apps/rave (run 'build/apps/rave --help')"

# The build tree's package on .venv's path (an editable install that follows every rebuild).
if [[ -f build/python/rave/__init__.py ]]; then
  site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
  printf '%s\n' "$root/build/python" > "$site/rave-build.pth"
  echo "rave Python package: .venv/bin/python -c 'import rave' (via $site/rave-build.pth)"
fi
