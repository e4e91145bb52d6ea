#include "cli/file_jobs.hpp"

#include <cstdio>
#include <map>
#include <system_error>

#include "common/error.hpp"
#include "engine/formats/problem_files.hpp"

namespace rave::cli {
namespace {

namespace fs = std::filesystem;

bool names_folder(const std::string& out) {
  std::error_code ec;
  return !out.empty() && (out.back() == '/' || fs::is_directory(out, ec));
}

// The output of `file` (found under `base`, or named directly when base is empty).
fs::path output_of(const fs::path& file, const fs::path& base, const std::string& out, bool single,
                   std::string_view ext) {
  fs::path target = file;
  target.replace_extension(ext);
  if (out.empty()) return target;
  if (single) return out;
  return fs::path(out) / (base.empty() ? target.filename() : target.lexically_relative(base));
}

void make_parent(const fs::path& output) {
  const fs::path parent = output.parent_path();
  std::error_code ec;
  if (parent.empty() || fs::is_directory(parent, ec)) return;
  fs::create_directories(parent, ec);
  if (ec) throw InputError(parent.string(), "", "cannot create folder: " + ec.message());
}

}  // namespace

std::vector<FileJob> plan_file_jobs(const std::vector<std::string>& inputs, const std::string& out,
                                    std::string_view ext) {
  std::vector<FileJob> jobs;
  std::error_code ec;
  const bool single = inputs.size() == 1 && !fs::is_directory(inputs[0], ec) && !names_folder(out);
  for (const std::string& input : inputs) {
    const bool folder = fs::is_directory(input, ec);
    for (const fs::path& file : engine::collect_problem_files({input}))
      jobs.push_back(
          {file, output_of(file, folder ? fs::path(input) : fs::path(), out, single, ext)});
  }
  std::map<fs::path, fs::path> seen;
  for (const FileJob& j : jobs) {
    const fs::path key = j.output.lexically_normal();
    if (key == j.input.lexically_normal())
      throw UsageError(j.input.string() +
                       ": the output would replace the input; choose another -o");
    const auto [it, fresh] = seen.emplace(key, j.input);
    if (!fresh)
      throw UsageError(it->second.string() + " and " + j.input.string() + " would both write " +
                       key.string() + "; pass folders, or -o a folder per set");
  }
  return jobs;
}

int run_file_jobs(const std::vector<FileJob>& jobs, std::string_view done,
                  const std::function<void(const FileJob&)>& job) {
  int failed = 0;
  for (const FileJob& j : jobs) {
    try {
      make_parent(j.output);
      job(j);
    } catch (const InputError& e) {
      std::fprintf(stderr, "rave: error: %s\n", e.what());
      ++failed;
    }
  }
  if (failed > 0 && jobs.size() > 1)
    std::fprintf(stderr, "rave: error: %d of %zu files could not be %.*s\n", failed, jobs.size(),
                 static_cast<int>(done.size()), done.data());
  return failed == 0 ? 0 : 1;
}

}  // namespace rave::cli
