# LibTorch for neural/: the one inside the PyTorch of the build's Python (cmake/RavePython.cmake;
# requirements.txt pins torch 2.11 from PyPI, whose Linux wheel is the CUDA 13 build), found through
# torch.utils.cmake_prefix_path, unless Torch_DIR or CMAKE_PREFIX_PATH names another LibTorch 2.4+.
# Included from neural/CMakeLists.txt (the only folder that links torch). Sets
#   RAVE_TORCH_CUDA        ON when the LibTorch is a CUDA build (then the CUDA toolkit is needed)
#   RAVE_HAVE_GLOO         c10d's Gloo process group compiles (multi-process training on the CPU)
#   RAVE_NCCL_INCLUDE_DIR  nccl.h for c10d's NCCL process group (CUDA builds)
# Multi-process training is never turned off silently: without what it needs the configure step
# stops and says how to proceed (-DRAVE_DISTRIBUTED=OFF trains in one process only).
include_guard(DIRECTORY)
include(RavePython)

option(RAVE_DISTRIBUTED "Multi-process training over c10d (Gloo on the CPU, NCCL on CUDA)" ON)
set(RAVE_TORCH_MIN_VERSION 2.4)

if(NOT Torch_DIR)
  rave_python_query(rave_torch_prefix "import torch.utils; print(torch.utils.cmake_prefix_path)")
  if(rave_torch_prefix)
    list(APPEND CMAKE_PREFIX_PATH "${rave_torch_prefix}")
  endif()
endif()
find_path(RAVE_TORCH_CONFIG_DIR TorchConfig.cmake HINTS ${Torch_DIR} PATH_SUFFIXES Torch share/cmake/Torch
          NO_CACHE)
if(NOT RAVE_TORCH_CONFIG_DIR)
  message(FATAL_ERROR
    "neural/ needs LibTorch ${RAVE_TORCH_MIN_VERSION}+: none in ${Python_EXECUTABLE} (scripts/setup.sh "
    "--full installs torch from requirements.txt into .venv) nor in CMAKE_PREFIX_PATH. Set Torch_DIR, "
    "or configure with -DRAVE_BUILD_NEURAL=OFF for the symbolic commands alone.")
endif()

# TorchConfig looks its libraries up with PATHS, which come after the system's folders: where a
# system LibTorch is installed too (Debian's libtorch-dev), it would take that one's libtorch.so.
get_filename_component(RAVE_TORCH_ROOT "${RAVE_TORCH_CONFIG_DIR}/../../.." ABSOLUTE)
list(PREPEND CMAKE_LIBRARY_PATH "${RAVE_TORCH_ROOT}/lib")

# A CUDA LibTorch configures only with the CUDA toolkit (its CMake package compiles for CUDA).
if(EXISTS "${RAVE_TORCH_ROOT}/lib/libtorch_cuda.so")
  set(RAVE_TORCH_CUDA ON)
  find_program(RAVE_NVCC nvcc HINTS ENV CUDA_HOME ENV CUDA_PATH /usr/local/cuda PATH_SUFFIXES bin)
  if(NOT RAVE_NVCC)
    message(FATAL_ERROR
      "the LibTorch in ${RAVE_TORCH_CONFIG_DIR} is a CUDA build: configuring against it needs the "
      "CUDA toolkit (nvcc, on PATH or in CUDA_HOME); install it, or use a CPU build of torch")
  endif()
  set(CMAKE_CUDA_COMPILER "${RAVE_NVCC}")
  # rave compiles no CUDA code of its own: the list only spares torch's GPU detection (a try_run
  # that needs a GPU) and would apply to .cu files. Hopper and Blackwell.
  if(NOT DEFINED TORCH_CUDA_ARCH_LIST AND NOT DEFINED ENV{TORCH_CUDA_ARCH_LIST})
    set(TORCH_CUDA_ARCH_LIST "9.0;10.0")
  endif()
  enable_language(CUDA)
  unset(CMAKE_CUDA_ARCHITECTURES)  # torch takes TORCH_CUDA_ARCH_LIST and warns at this one
  unset(CMAKE_CUDA_ARCHITECTURES CACHE)
else()
  set(RAVE_TORCH_CUDA OFF)
endif()

find_package(Torch ${RAVE_TORCH_MIN_VERSION} REQUIRED CONFIG HINTS "${RAVE_TORCH_CONFIG_DIR}")
message(STATUS "rave: LibTorch ${Torch_VERSION} (${TORCH_INSTALL_PREFIX}), CUDA ${RAVE_TORCH_CUDA}")

# c10d's Gloo process group: PyPI's wheels link gloo into libtorch_cpu but ship no gloo headers,
# which ProcessGroupGloo.hpp includes. rave takes the declarations from Debian's libgloo-dev and
# links no gloo of its own: every gloo object ProcessGroupGloo holds is behind a pointer, and rave
# makes them only through torch's exported functions, so the headers need only compile with this
# torch's ProcessGroupGloo.hpp, which this checks.
set(RAVE_HAVE_GLOO OFF)
if(RAVE_DISTRIBUTED)
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_INCLUDES ${TORCH_INCLUDE_DIRS})
  set(CMAKE_REQUIRED_DEFINITIONS -DUSE_C10D_GLOO ${TORCH_CXX_FLAGS})
  # and links: the functions rave calls are exported (files, not targets: torch aliases some)
  set(CMAKE_REQUIRED_LIBRARIES "${RAVE_TORCH_ROOT}/lib/libtorch_cpu.so;${RAVE_TORCH_ROOT}/lib/libc10.so")
  set(CMAKE_REQUIRED_QUIET ON)
  check_cxx_source_compiles([[
    #include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
    int main() { return c10d::ProcessGroupGloo::Options::create() ? 0 : 1; }]]
    RAVE_GLOO_HEADERS_COMPILE)
  if(NOT RAVE_GLOO_HEADERS_COMPILE)
    message(FATAL_ERROR
      "multi-process training needs c10d's ProcessGroupGloo.hpp to compile, and with it gloo's "
      "headers, which the torch wheel lacks (Debian: apt-get install libgloo-dev; scripts/setup.sh "
      "--full does). Or configure with -DRAVE_DISTRIBUTED=OFF to train in one process only.")
  endif()
  set(RAVE_HAVE_GLOO ON)
  # NCCL for CUDA tensors: the header of the NCCL the wheel loads (PyPI's nvidia-nccl), else one
  # beside the toolkit.
  if(RAVE_TORCH_CUDA)
    rave_python_query(rave_nccl_hint
      "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'include'))")
    find_path(RAVE_NCCL_INCLUDE_DIR nccl.h HINTS ${rave_nccl_hint} ${RAVE_NCCL_HINTS} ENV NCCL_INCLUDE_DIR
              ${CUDAToolkit_INCLUDE_DIRS})
    if(NOT RAVE_NCCL_INCLUDE_DIR)
      message(FATAL_ERROR
        "a CUDA LibTorch trains on several GPUs through NCCL, and nccl.h was not found (PyPI: "
        "nvidia-nccl; set NCCL_INCLUDE_DIR), or configure with -DRAVE_DISTRIBUTED=OFF")
    endif()
    message(STATUS "rave: NCCL process groups for CUDA (${RAVE_NCCL_INCLUDE_DIR})")
  endif()
endif()
