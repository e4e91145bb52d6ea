#include "solver/heuristic.hpp"

#include "common/error.hpp"

namespace rave::solver {

HeuristicSolver::HeuristicSolver(SolveOptions options) : options_(options), grid_(options) {}

Solution HeuristicSolver::solve(const engine::Problem& problem) {
  last_grid_ = needs_grid_solver(problem);
  if (last_grid_) {
    last_grid_solution_ = grid_.solve(problem);
    return last_grid_solution_;
  }
  const auto& config = engine::configuration(problem.config);
  components_ = static_cast<int>(config.components.size());
  RAVE_CHECK(components_ >= 1 && components_ <= 2, "configurations have one or two components");
  const LayoutModel* models[2] = {&layout_model(problem.config, 0), nullptr};
  if (components_ == 2) models[1] = &layout_model(problem.config, 1);
  build_views(problem, components_, models, views_.data(), options_.angle);
  for (int c = 0; c < components_; ++c)
    fits_[c].fit(*models[c], views_[c], allowed_in(problem, c, *models[c], options_.use_rules),
                 options_.occam, options_.angle);
  // Only candidates every component may explain are scored (the others score kNoScore).
  unsigned possible = 0xFFu;
  for (int c = 0; c < components_; ++c) possible &= fits_[c].possible();
  Solution s;
  double best = kNoScore;
  for (int i = 0; i < 8; ++i) {
    s.log_score[i] = ((possible >> i) & 1u) != 0 ? score(i) : kNoScore;
    if (s.log_score[i] == kNoScore) continue;
    s.consistent = static_cast<std::uint8_t>(s.consistent | (1u << i));
    if (s.log_score[i] > best) best = s.log_score[i], s.answer = i;
  }
  s.verdict = verdict_of(s.consistent);
  if (s.verdict == Verdict::kNone) s.reason = none_reason(problem.config);
  return s;
}

// Why no candidate is explained: the first rule group no hypothesis fits on the context, if any.
std::string HeuristicSolver::none_reason(engine::ConfigId config) const {
  for (int c = 0; c < components_; ++c) {
    const std::string gap = fits_[c].context_gap();
    if (!gap.empty())
      return std::string(layout_model(config, c).name) + ": no " + gap + " rule fits the context";
  }
  return "no candidate completes the rules the context satisfies";
}

double HeuristicSolver::score(int candidate) const {
  if (last_grid_) return last_grid_solution_.log_score.at(static_cast<std::size_t>(candidate));
  double total = 0;
  for (int c = 0; c < components_ && total != kNoScore; ++c) total += fits_[c].score(candidate);
  return total;
}

Reading HeuristicSolver::reading(int candidate) const {
  if (last_grid_) return grid_.reading(candidate);
  Reading r;
  for (int c = 0; c < components_; ++c)
    if (fits_[c].score(candidate, &r.components[c]) == kNoScore) return Reading{};
  r.count = components_;
  return r;
}

}  // namespace rave::solver
