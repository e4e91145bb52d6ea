#include "engine/problem_io.hpp"

#include <system_error>

#include "common/error.hpp"

#include "engine/npz.hpp"
#include "engine/xml_io.hpp"

namespace rave::engine {

std::filesystem::path sibling_npz(const std::filesystem::path& xml) {
  auto npz = xml;
  return npz.replace_extension(".npz");
}

std::filesystem::path sibling_xml(const std::filesystem::path& npz) {
  auto xml = npz;
  return xml.replace_extension(".xml");
}

std::optional<int> target_from_modifications(const Problem& problem) {
  if (!problem.modified) return std::nullopt;
  std::optional<int> found;
  for (int i = 0; i < 8; ++i) {
    if (!(*problem.modified)[static_cast<std::size_t>(i)].empty()) continue;
    if (found) return std::nullopt;
    found = i;
  }
  return found;
}

Problem read_problem_with_target(const std::filesystem::path& xml) {
  Problem problem = read_problem_xml(xml);
  const auto npz = sibling_npz(xml);
  std::error_code ec;
  if (std::filesystem::is_regular_file(npz, ec)) {
    const NpzFile file = read_npz(npz, {"target", "predict"});  // skips the 400 KB image
    const std::int64_t target = file.target();
    if (target < 0 || target > 7)
      throw InputError(npz.string(), "target.npy", "target " + std::to_string(target) + " is not 0..7");
    problem.target = static_cast<int>(target);
    problem.predict = static_cast<int>(file.predict());
  } else {
    problem.target = target_from_modifications(problem);
  }
  return problem;
}

}  // namespace rave::engine
