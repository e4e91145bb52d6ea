#include "engine/formats/layout.hpp"

#include <algorithm>
#include <charconv>

namespace rave::engine {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

Split split_of(std::uint64_t k, int val, int test) {
  const auto digit = static_cast<int>(k % 10);
  if (digit < 10 - val - test) return Split::kTrain;
  if (digit < 10 - test) return Split::kVal;
  return Split::kTest;
}

std::string problem_stem(std::uint64_t k, Split split) {
  return "RAVEN_" + std::to_string(k) + "_" + std::string(split_name(split));
}

ProblemName parse_problem_stem(std::string_view stem) {
  ProblemName out;
  for (const Split split : {Split::kTrain, Split::kVal, Split::kTest}) {
    const std::string_view name = split_name(split);
    if (stem.size() > name.size() + 1 && stem.ends_with(name) &&
        stem[stem.size() - name.size() - 1] == '_') {
      out.split = split;
      stem.remove_suffix(name.size() + 1);
      break;
    }
  }
  const std::size_t underscore = stem.rfind('_');
  const std::string_view digits =
      underscore == std::string_view::npos ? std::string_view() : stem.substr(underscore + 1);
  std::uint64_t k = 0;
  if (underscore != std::string_view::npos && underscore > 0 && !digits.empty() &&
      std::all_of(digits.begin(), digits.end(), is_digit) &&
      std::from_chars(digits.data(), digits.data() + digits.size(), k).ec == std::errc()) {
    out.k = k;
    stem = stem.substr(0, underscore);
  }
  out.prefix = std::string(stem);
  return out;
}

ProblemName parse_problem_name(const std::filesystem::path& file) {
  return parse_problem_stem(file.stem().native());
}

}  // namespace rave::engine
