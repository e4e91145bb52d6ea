#include "engine/formats/layout.hpp"

namespace rave::engine {

Split split_of(std::uint64_t k, int val, int test) {
  const auto digit = static_cast<int>(k % 10);
  if (digit < 10 - val - test) return Split::kTrain;
  if (digit < 10 - test) return Split::kVal;
  return Split::kTest;
}

std::string problem_stem(std::uint64_t k, Split split) {
  return "RAVEN_" + std::to_string(k) + "_" + std::string(split_name(split));
}

}  // namespace rave::engine
