#pragma once
// Realistic problems for the renderer and I/O benchmarks, from the engine's own sampler with a
// fixed seed: the context is a sampled matrix's first 8 panels; the candidates are its answer and
// the answers of the next 7 matrices of the same configuration (same shapes, sizes and counts as
// real answer sets; the rules are the first matrix's).
//
//   std::vector<Problem> problems = bench_problems(ConfigId::kDistributeNine, 32);
#include <vector>

#include "engine/model/problem.hpp"
#include "engine/rules/matrix.hpp"

namespace rave::bench {

inline std::vector<engine::Problem> bench_problems(engine::ConfigId id, int count) {
  Rng rng(1234);
  std::vector<engine::Matrix> matrices;
  for (int i = 0; i < count + 7; ++i) matrices.push_back(engine::sample_matrix(id, rng));
  std::vector<engine::Problem> problems;
  for (int i = 0; i < count; ++i) {
    engine::Problem p;
    p.config = id;
    for (int j = 0; j < 8; ++j)
      p.context[static_cast<std::size_t>(j)] =
          matrices[static_cast<std::size_t>(i)].panels[static_cast<std::size_t>(j)];
    for (int j = 0; j < 8; ++j)
      p.candidates[static_cast<std::size_t>(j)] =
          matrices[static_cast<std::size_t>(i + j)].answer();
    p.rules = matrices[static_cast<std::size_t>(i)].rules;
    p.target = 0;
    p.predict = 0;
    problems.push_back(std::move(p));
  }
  return problems;
}

}  // namespace rave::bench
