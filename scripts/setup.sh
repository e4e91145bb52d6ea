#!/usr/bin/env bash
# Sets up rave on a fresh Debian 12 machine: installs the apt packages the build needs, configures
# and builds everything into ./build. Safe to re-run (apt and the build are incremental).
#   scripts/setup.sh                 # install + build (Release)
#   RAVE_SKIP_APT=1 scripts/setup.sh # build only
#   RAVE_CMAKE_ARGS="-DRAVE_BUILD_NEURAL=OFF" scripts/setup.sh
# It also makes the Python package (build/python/rave) importable by /usr/bin/python3.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

packages=(
  build-essential cmake pkg-config ccache git
  libboost-dev libboost-graph-dev          # Spirit X3, Boost.Graph
  libopencv-imgproc-dev                    # the renderer (OpenCV 4.6, as the original)
  libpugixml-dev zlib1g-dev libdeflate-dev # XML, npz and PNG files (libdeflate: CRC-32)
  libtbb-dev                               # parallel generation and data pipeline
  libcli11-dev nlohmann-json3-dev          # the CLI and JSON Lines output
  libz3-dev                                # the Z3 solver backend
  libtorch-dev libopenblas0-pthread        # neural baselines (OpenBLAS, not the reference BLAS)
  libgloo-dev                              # c10d Gloo headers: multi-process training
  libgtest-dev libgmock-dev libbenchmark-dev   # tests and rave-bench
  libssl-dev                               # SHA-256 of the test fixtures (tests only)
  python3-numpy                            # the test that numpy reads rave's npz files; the Python package
  python3-dev pybind11-dev python3-pybind11    # the Python package (python/)
  python3-pytest python3-torch python3-pil     # its tests: pytest, rave.torch, Pillow's resize as the reference
  clang libclang-rt-14-dev                 # the grammar fuzzer (libFuzzer)
  clang-format                             # the house format, checked by CI (scripts/check_format.sh)
)

if [[ "${RAVE_SKIP_APT:-0}" != 1 ]]; then
  sudo=""
  [[ "$(id -u)" -ne 0 ]] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -q
  $sudo apt-get install -y -q --no-install-recommends "${packages[@]}"
fi

jobs="${RAVE_JOBS:-$(nproc)}"
# shellcheck disable=SC2086
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release ${RAVE_CMAKE_ARGS:-}
cmake --build build -j "$jobs"
echo "rave built: $root/build/apps/rave (run 'build/apps/rave --help')"

# The Python package, built in build/python: put it on /usr/bin/python3's path with a .pth file in
# the user's site-packages (an editable install: it follows every rebuild; no root, no pip).
if [[ -f build/python/rave/__init__.py ]]; then
  site="$(/usr/bin/python3 -c 'import site; print(site.getusersitepackages())')"
  mkdir -p "$site"
  printf '%s\n' "$root/build/python" > "$site/rave.pth"
  echo "rave Python package: /usr/bin/python3 -c 'import rave' (via $site/rave.pth)"
fi
