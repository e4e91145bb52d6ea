#include "evaluation/shuffle.hpp"

#include <algorithm>
#include <numeric>
#include <span>

#include "common/error.hpp"
#include "common/random.hpp"

namespace rave::evaluation {
namespace {

// FNV-1a: a fixed 64-bit hash of the id (std::hash is not the same across libraries).
std::uint64_t fnv1a(std::string_view text) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

}  // namespace

std::uint64_t item_seed(std::uint64_t seed, std::string_view id) { return mix64(seed) ^ fnv1a(id); }

std::vector<int> candidate_order(std::uint64_t seed, std::string_view id, int candidates) {
  std::vector<int> order(static_cast<std::size_t>(candidates));
  std::iota(order.begin(), order.end(), 0);
  Rng rng(item_seed(seed, id));
  rng.shuffle(std::span<int>(order));
  return order;
}

std::vector<int> answer_first_order(int target, int candidates) {
  RAVE_CHECK(target >= 0 && target < candidates, "the answer is a candidate");
  std::vector<int> order(static_cast<std::size_t>(candidates));
  std::iota(order.begin(), order.end(), 0);
  std::swap(order[0], order[static_cast<std::size_t>(target)]);
  return order;
}

std::uint32_t numpy_seed(std::uint64_t seed, std::string_view id) {
  return static_cast<std::uint32_t>(mix64(mix64(seed) ^ fnv1a(id)) >> 32);
}

engine::Problem shuffled(const engine::Problem& problem, const std::vector<int>& order) {
  RAVE_CHECK(order.size() == problem.candidates.size(), "one position per candidate");
  engine::Problem out = problem;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto from = static_cast<std::size_t>(order[k]);
    out.candidates[k] = problem.candidates[from];
    if (problem.modified) (*out.modified)[k] = (*problem.modified)[from];
    if (problem.target && *problem.target == order[k]) out.target = static_cast<int>(k);
    if (problem.predict && *problem.predict == order[k]) out.predict = static_cast<int>(k);
  }
  return out;
}

}  // namespace rave::evaluation
