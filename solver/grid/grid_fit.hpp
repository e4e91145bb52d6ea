#pragma once
// The rule checks of the grid solver (docs/solver.md#n-x-n-matrices), tabulated once per problem
// and component: every Number/Position hypothesis of the variant's table with the candidates it
// holds for, and under its carry every Type, Size and Color hypothesis with the candidates it holds
// for, each with its log prior and the log-likelihood of the last panel's free parts per candidate.
// Both backends decide from this table: the heuristic ranks by the best reading per candidate, Z3
// (solver/z3/grid_decision.hpp) states the choice of readings as constraints and proves the set.
//
//   GridComponentFit f = fit_grid_component(problem, /*component=*/0, {});
//   for (const GridGroup0Fit& g : f.group0) if (g.holds >> i & 1) ...   // candidate i
#include <array>
#include <cstdint>
#include <vector>

#include "engine/model/problem.hpp"
#include "solver/grid/grid_view.hpp"
#include "solver/solution.hpp"

namespace rave::solver {

/// Log-likelihoods per candidate.
using CandidateWeights = std::array<double, engine::kCandidates>;

/// A Type, Size or Color hypothesis under one Number/Position hypothesis.
struct GridEntityFit {
  engine::Rule rule;
  double log_prior = 0;
  bool noise = false;      ///< Constant read as noise (entities redrawn in a non-uniform layout)
  std::uint8_t holds = 0;  ///< bit i: holds with candidate i last
  CandidateWeights log_lik{};  ///< the last panel's free levels
};

/// A Number/Position hypothesis and, under its carry, the entity hypotheses.
struct GridGroup0Fit {
  engine::Rule rule;
  double log_prior = 0;
  std::uint8_t holds = 0;
  CandidateWeights log_lik{};  ///< the last panel's fresh slot set
  std::array<std::vector<GridEntityFit>, kGridAttrs>
      attrs{};  ///< same hypotheses in the same order for every group-0 fit
};

/// One component's table.
struct GridComponentFit {
  std::vector<GridGroup0Fit> group0;
};

/// Every hypothesis of component `component` checked with every candidate (only the stored rule
/// names with use_rules; with occam, no noise reading of an attribute a non-Constant rule
/// explains).
GridComponentFit fit_grid_component(const engine::Problem& problem, int component,
                                    const SolveOptions& options);
/// The best reading of candidate `i` in `fit` and its score (log prior + log-likelihood), or
/// kNoScore.
double best_grid_reading(const GridComponentFit& fit, int i, ComponentReading& out);

}  // namespace rave::solver
