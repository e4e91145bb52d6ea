#include "solver/problem_files.hpp"

#include <algorithm>
#include <system_error>

#include "common/error.hpp"
#include "engine/asig_io.hpp"
#include "engine/problem_io.hpp"
#include "engine/xml_io.hpp"

namespace rave::solver {

namespace fs = std::filesystem;

bool is_problem_file(const fs::path& path) { return path.extension() == ".xml" || path.extension() == ".asig"; }

std::vector<fs::path> collect_problem_files(const std::vector<fs::path>& inputs) {
  std::vector<fs::path> out;
  for (const fs::path& input : inputs) {
    std::error_code ec;
    if (fs::is_directory(input, ec)) {
      std::vector<fs::path> found;
      for (fs::recursive_directory_iterator it(input, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec) && is_problem_file(it->path())) found.push_back(it->path());
      if (ec) throw InputError(input.string(), "", "cannot list folder: " + ec.message());
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else if (fs::exists(input, ec)) {
      out.push_back(input);
    } else {
      throw InputError(input.string(), "", "no such file or folder");
    }
  }
  return out;
}

engine::Problem load_problem(const fs::path& file, bool with_target) {
  if (!is_problem_file(file))
    throw InputError(file.string(), "", "not a problem file (expected .xml or .asig)");
  if (file.extension() == ".asig") return engine::read_asig(file);  // holds its target, if known
  return with_target ? engine::read_problem_with_target(file) : engine::read_problem_xml(file);
}

}  // namespace rave::solver
