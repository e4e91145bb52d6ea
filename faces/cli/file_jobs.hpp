#pragma once
// Commands that turn many input files into as many output files (`rave convert --to`, `rave
// render`): where each output goes (-o), and running the jobs so that one bad file is reported on
// its own line and never stops the others. CLI behaviour (it prints and picks the exit code), so
// it lives in cli/, not in the libraries.
//
//   auto planned = plan_file_jobs({"data/raven"}, "out", ".npz");  // out/center_single/...npz
//   return run_file_jobs(planned, "rendered",
//                        [](const FileJob& j) { render_one(j.input, j.output); });
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace rave::cli {

/// One input file and the file it becomes.
struct FileJob {
  std::filesystem::path input;
  std::filesystem::path output;
};

/// Maps `inputs` (files, and folders walked for problem files) to outputs with extension `ext`.
/// `out` empty: each output lies beside its input. One file input and `out` not an existing folder
/// (nor ending in '/'): `out` itself. Otherwise `out` is a folder: a file input keeps its name, a
/// folder input's files keep their path below that folder. UsageError when two inputs would write
/// one output, or an output would replace its own input.
std::vector<FileJob> plan_file_jobs(const std::vector<std::string>& inputs, const std::string& out,
                                    std::string_view ext);

/// Runs `job` on each in order; an InputError from one is printed as `rave: error: <what>` and the
/// others still run; with several files and a failure, a last line counts them ("3 of 10 files
/// could not be <done>"). Returns the command's exit code: 0, or 1 when any failed.
int run_file_jobs(const std::vector<FileJob>& jobs, std::string_view done,
                  const std::function<void(const FileJob&)>& job);

}  // namespace rave::cli
