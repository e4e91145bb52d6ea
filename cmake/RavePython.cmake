# The Python interpreter of the build: the one in the repository's virtual environment (.venv, made
# by scripts/setup.sh from PyPI with requirements.txt) unless Python_EXECUTABLE names another, or
# the one scikit-build-core runs under `pip install .`. The Python package (faces/python/), the pytest
# files and LibTorch's location (cmake/RaveTorch.cmake) all come from it.
include_guard(GLOBAL)

if(NOT DEFINED Python_EXECUTABLE AND EXISTS "${PROJECT_SOURCE_DIR}/.venv/bin/python")
  set(Python_EXECUTABLE "${PROJECT_SOURCE_DIR}/.venv/bin/python" CACHE FILEPATH "The Python of the build")
endif()

# rave_python_query(<var> <code>): the one line that `python -c <code>` prints, or "" when it fails.
function(rave_python_query var code)
  set(out "")
  if(Python_EXECUTABLE)
    execute_process(COMMAND "${Python_EXECUTABLE}" -c "${code}" OUTPUT_VARIABLE out
                    RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT rc EQUAL 0)
      set(out "")
    endif()
  endif()
  set(${var} "${out}" PARENT_SCOPE)
endfunction()

# pybind11 from the same Python's site-packages (requirements.txt pins it; pip's build isolation
# provides it under `pip install .`), found without a system copy.
macro(rave_find_pybind11)
  if(NOT pybind11_DIR)
    rave_python_query(rave_pybind11_dir "import pybind11; print(pybind11.get_cmake_dir())")
    if(rave_pybind11_dir)
      set(pybind11_DIR "${rave_pybind11_dir}" CACHE PATH "pybind11's CMake package (from Python)")
    endif()
  endif()
  find_package(pybind11 2.10 CONFIG QUIET)
endmacro()
