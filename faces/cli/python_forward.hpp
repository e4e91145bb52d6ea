#pragma once
// Commands whose work is done by the Python package (`rave export -f hf`: pyarrow and datasets
// write the hub's parquet): this process is replaced by `python -m rave <args>`, run by the Python
// that has this rave: $RAVE_PYTHON, else the environment rave is pip-installed in (rave/bin/rave
// inside its site-packages), else the build's Python with the build tree's package on PYTHONPATH,
// else `python3` on PATH.
//
//   exec_python_rave({"export-hf", "data/raven", "-o", "hub"});   // returns only on failure
//   int rc = run_python_rave({"shortcuts", "data/iraven"});       // `rave check --shortcuts`
#include <string>
#include <vector>

namespace rave::cli {

/// Replaces this process with `python -m rave ARGS...`; throws rave::Error when it cannot start.
[[noreturn]] void exec_python_rave(const std::vector<std::string>& args);
/// Runs `python -m rave ARGS...` as a child sharing this process's output, waits for it and returns
/// its exit code (128 + the signal when one ended it); throws rave::Error when it cannot start.
int run_python_rave(const std::vector<std::string>& args);

}  // namespace rave::cli
