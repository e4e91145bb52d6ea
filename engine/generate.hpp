#pragma once
// One whole RPM problem from a seed: sample the matrix, build the answer set with the chosen
// strategy, and record the original solver's prediction (the npz `predict` field). Problem k of
// configuration c depends only on (seed, c, k, strategy): DESIGN.md "How data flows".
//
//   Problem p = generate_problem(ConfigId::kDistributeFour, AnswerStrategy::kIRaven, 1234, 7);
//   p.candidates[*p.target] is the answer
#include <cstdint>

#include "engine/answers/answer_set.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine {

/// Problem `k` of configuration `config` under `seed`, with `strategy` answer sets; `attempt` > 0
/// draws it again from another stream (Rng::for_problem), for datasets that redraw some problems.
Problem generate_problem(ConfigId config, AnswerStrategy strategy, std::uint64_t seed, std::uint64_t k,
                         std::uint64_t attempt = 0);

/// Assembles a Problem from a sampled matrix and its answer set (context = panels 0..7).
Problem assemble_problem(const Matrix& matrix, AnswerSet answers, int predict);

}  // namespace rave::engine
