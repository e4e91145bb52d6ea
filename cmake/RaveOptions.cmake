# Project-wide switches and policy targets (rave::options, rave::warnings).
include_guard(GLOBAL)

option(RAVE_BUILD_NEURAL "Build neural/ (needs LibTorch)" ON)
option(RAVE_BUILD_BENCH "Build rave-bench (needs Google Benchmark)" ON)
option(RAVE_BUILD_PYTHON "Build the Python package (faces/python/; needs pybind11, skipped when it is not found)" ON)
option(RAVE_BUILD_FUZZERS "Build libFuzzer targets (needs clang)" OFF)
option(RAVE_ENABLE_SANITIZERS "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(RAVE_WARNINGS_AS_ERRORS "Treat compiler warnings as errors" OFF)
option(RAVE_CCACHE "Use ccache when it is installed" ON)

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
# Every library is position-independent so that the Python module (a shared object) can link the
# same static libraries the executables do; no semantic interposition keeps -fPIC code as fast as
# the default PIE code (calls within a library may still be inlined).
set(CMAKE_POSITION_INDEPENDENT_CODE ON)

if(RAVE_CCACHE)
  find_program(RAVE_CCACHE_PROGRAM ccache)
  if(RAVE_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${RAVE_CCACHE_PROGRAM})
    set(CMAKE_C_COMPILER_LAUNCHER ${RAVE_CCACHE_PROGRAM})
  endif()
endif()

include(CTest)

add_library(rave_options INTERFACE)
add_library(rave::options ALIAS rave_options)
# Exact pixel parity with the reference needs IEEE double arithmetic without FMA contraction
# (docs/rendering.md, docs/rendering.md#exactness); it is set project-wide so no geometry can drift.
target_compile_options(rave_options INTERFACE -ffp-contract=off -fno-semantic-interposition)
if(RAVE_ENABLE_SANITIZERS)
  # Every finding ends the process (UBSan would otherwise print and go on), so a test fails on it.
  target_compile_options(rave_options INTERFACE -fsanitize=address,undefined -fno-sanitize-recover=all
                                                -fno-omit-frame-pointer)
  target_link_options(rave_options INTERFACE -fsanitize=address,undefined -fno-sanitize-recover=all)
endif()

add_library(rave_warnings INTERFACE)
add_library(rave::warnings ALIAS rave_warnings)
target_compile_options(rave_warnings INTERFACE -Wall -Wextra -Wpedantic)
if(RAVE_WARNINGS_AS_ERRORS)
  target_compile_options(rave_warnings INTERFACE -Werror)
endif()
