#pragma once
// One whole RPM problem from a seed: sample the matrix, build the answer set with the chosen
// strategy, and record the original solver's prediction (the npz `predict` field). Problem k of
// configuration c depends only on (seed, c, k, strategy) and, for a variant (docs/variants.md), on
// the variant and the problem's split: DESIGN.md "How data flows". A variant samples in its own
// level ranges, writes file levels (engine/model/variant_space.hpp), then adds its confounders
// from a stream of their own, so the same seed gives the same matrices with and without them.
//
//   Problem p = generate_problem(ConfigId::kDistributeFour, AnswerStrategy::kIRaven, 1234, 7);
//   Problem big = generate_problem(ConfigId::kCenterSingle, AnswerStrategy::kRaven, 1234, 7,
//                                  Variant{.grid = 10}, Split::kTrain);
//   p.candidates[*p.target] is the answer
#include <cstdint>

#include "engine/answers/answer_set.hpp"
#include "engine/model/problem.hpp"
#include "engine/model/variant.hpp"

namespace rave::engine {

/// Problem `k` of configuration `config` under `seed`, with `strategy` answer sets; `attempt` > 0
/// draws it again from another stream (Rng::for_problem), for datasets that redraw some problems.
Problem generate_problem(ConfigId config, AnswerStrategy strategy, std::uint64_t seed,
                         std::uint64_t k, std::uint64_t attempt = 0);
/// The same under `variant`, for a problem of `split` (the original for a default Variant).
Problem generate_problem(ConfigId config, AnswerStrategy strategy, std::uint64_t seed,
                         std::uint64_t k, const Variant& variant, Split split,
                         std::uint64_t attempt = 0);

/// What generate_problem draws before the solver's prediction, the level maps and the confounders:
/// the matrix, its answer set with what the files do not carry (AnswerSet::matrix_redraws,
/// fresh_rules, fell_back), and the problem's stream where the prediction continues it.
struct DrawnProblem {
  Matrix matrix;
  AnswerSet answers;
  Rng rng;
};
DrawnProblem draw_matrix_and_answers(ConfigId config, AnswerStrategy strategy, std::uint64_t seed,
                                     std::uint64_t k, const Variant& variant, Split split,
                                     std::uint64_t attempt = 0);

/// Assembles a Problem from a sampled matrix and its answer set (context = all panels but the
/// last).
Problem assemble_problem(const Matrix& matrix, AnswerSet answers, int predict);

}  // namespace rave::engine
