#pragma once
// Commands whose work is done by the Python package (`rave export -f hf`: pyarrow and datasets
// write the hub's parquet): this process is replaced by `python -m rave <args>`, run by the Python
// that has this rave: $RAVE_PYTHON, else the environment rave is pip-installed in (rave/bin/rave
// inside its site-packages), else the build's Python with the build tree's package on PYTHONPATH,
// else `python3` on PATH.
//
//   exec_python_rave({"export-hf", "data/raven", "-o", "hub"});   // returns only on failure
#include <string>
#include <vector>

namespace rave::cli {

/// Replaces this process with `python -m rave ARGS...`; throws rave::Error when it cannot start.
[[noreturn]] void exec_python_rave(const std::vector<std::string>& args);

}  // namespace rave::cli
