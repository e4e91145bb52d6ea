# Third-party packages, found once; each is linked only where the layering allows
# (X3 in grammar, OpenCV in engine's renderer, Z3 in solver's backend, torch in neural).
include_guard(GLOBAL)

find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(Boost 1.74 REQUIRED CONFIG COMPONENTS graph)
find_package(TBB REQUIRED)
find_package(ZLIB REQUIRED)
pkg_check_modules(libdeflate REQUIRED IMPORTED_TARGET libdeflate)
find_package(SQLite3 REQUIRED)                                    # rave study: its database
pkg_check_modules(httplib REQUIRED IMPORTED_TARGET cpp-httplib)   # rave study: its HTTP server
# Debian's libopencv-{core,imgproc}-dev ship no CMake config: find the pieces by hand. imgcodecs is
# not linked (it pulls in GDAL and ~250 libraries): rave encodes its PNG files itself.
find_path(RAVE_OPENCV_INCLUDE opencv2/imgproc.hpp PATH_SUFFIXES opencv4 REQUIRED)
add_library(rave_opencv INTERFACE)
add_library(rave::opencv ALIAS rave_opencv)
target_include_directories(rave_opencv SYSTEM INTERFACE ${RAVE_OPENCV_INCLUDE})
foreach(part core imgproc)
  find_library(RAVE_OPENCV_${part} opencv_${part} REQUIRED)
  target_link_libraries(rave_opencv INTERFACE ${RAVE_OPENCV_${part}})
endforeach()
find_package(CLI11 REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(pugixml REQUIRED CONFIG)
if(BUILD_TESTING)
  find_package(GTest REQUIRED)
  include(GoogleTest)
  find_package(OpenSSL REQUIRED COMPONENTS Crypto)  # SHA-256 of the reference fixtures, tests only
endif()
if(RAVE_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()

# The Python package: built for the build's Python (cmake/RavePython.cmake: .venv's unless told
# otherwise) with pybind11 from its site-packages. Without them the package is not built
# (RAVE_BUILD_PYTHON turns itself off), except under `pip install .`, where it is the point.
if(RAVE_BUILD_PYTHON)
  include(RavePython)
  find_package(Python 3.9 COMPONENTS Interpreter Development.Module)
  if(Python_FOUND)
    rave_find_pybind11()
  endif()
  if(NOT Python_FOUND OR NOT pybind11_FOUND)
    if(SKBUILD)
      message(FATAL_ERROR "pip install: pybind11 or the headers of ${Python_EXECUTABLE} not found")
    endif()
    message(STATUS "pybind11 or the Python headers not found: the Python package is not built "
                   "(scripts/setup.sh makes .venv with both)")
    set(RAVE_BUILD_PYTHON OFF)
  endif()
endif()

# The original generators' output with its npz files (../shared/data), for the optional check that
# the fixtures in tests/fixtures match it; every conformance test runs from the fixtures alone.
set(RAVE_SHARED_DIR "${PROJECT_SOURCE_DIR}/../shared" CACHE PATH "Folder holding data/raven-reference (optional)")
