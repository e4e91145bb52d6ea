#pragma once
// The candidate order of `rave export --answers-shuffled SEED` (and of `rave score` told the same
// seed): a permutation per item drawn from (seed, id) alone, so it does not depend on which other
// problems are exported, in which order, or on how many threads.
//
//   std::vector<int> order = candidate_order(7, "center_single/RAVEN_0_train", 8);
//   engine::Problem shown = shuffled(problem, order);   // shown.candidates[k] ==
//   problem.candidates[order[k]]
#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/model/problem.hpp"

namespace rave::evaluation {

/// The seed of a random stream for one item, from (seed, id) alone: mix64(seed) ^ FNV-1a(id).
std::uint64_t item_seed(std::uint64_t seed, std::string_view id);
/// Shown position k holds original candidate order[k].
std::vector<int> candidate_order(std::uint64_t seed, std::string_view id, int candidates);
/// lm-raven's `switch(rpm, 8, 8 + target)`: candidate 0 and the answer change places.
std::vector<int> answer_first_order(int target, int candidates);
/// The 32-bit numpy seed of one problem, drawn from (seed, id) as candidate_order draws.
std::uint32_t numpy_seed(std::uint64_t seed, std::string_view id);
/// The problem with its candidates (and I-RAVEN modifications) in `order`, the target moved along.
engine::Problem shuffled(const engine::Problem& problem, const std::vector<int>& order);

}  // namespace rave::evaluation
