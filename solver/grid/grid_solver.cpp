#include "solver/grid/grid_solver.hpp"

#include "engine/model/configuration.hpp"
#include "solver/grid/grid_fit.hpp"

namespace rave::solver {
bool needs_grid_solver(const engine::Problem& problem) {
  const engine::Variant& v = problem.variant;
  return v.grid != engine::kDefaultGrid || v.values != 0 || engine::is_value_regime(v.regime);
}

GridSolver::GridSolver(SolveOptions options) : options_(options) {}

Solution GridSolver::solve(const engine::Problem& problem) {
  const auto components = engine::configuration(problem.config).components.size();
  Solution s;
  s.log_score.fill(0);
  readings_ = {};
  for (std::size_t c = 0; c < components; ++c) {
    const GridComponentFit fit = fit_grid_component(problem, static_cast<int>(c), options_);
    for (int i = 0; i < engine::kCandidates; ++i) {
      double& score = s.log_score[static_cast<std::size_t>(i)];
      if (score == kNoScore) continue;
      Reading& r = readings_[static_cast<std::size_t>(i)];
      r.components[c].component = static_cast<int>(c);
      score += best_grid_reading(fit, i, r.components[c]);
      r.count = score == kNoScore ? 0 : static_cast<int>(c) + 1;
    }
  }
  for (int i = 0; i < engine::kCandidates; ++i) {
    if (s.log_score[static_cast<std::size_t>(i)] == kNoScore) continue;
    s.consistent |= static_cast<std::uint8_t>(1u << i);
    if (!s.answer ||
        s.log_score[static_cast<std::size_t>(i)] > s.log_score[static_cast<std::size_t>(*s.answer)])
      s.answer = i;
  }
  s.verdict = verdict_of(s.consistent);
  if (s.verdict == Verdict::kNone)
    s.reason = "no candidate completes rules that hold on every row of the matrix";
  return s;
}

Reading GridSolver::reading(int candidate) const {
  if (candidate < 0 || candidate >= engine::kCandidates) return {};
  const Reading& r = readings_[static_cast<std::size_t>(candidate)];
  return r.count > 0 ? r : Reading{};
}

}  // namespace rave::solver
