#include "solver/heuristic.hpp"

#include "common/error.hpp"

namespace rave::solver {

HeuristicSolver::HeuristicSolver(SolveOptions options) : options_(options) {}

Solution HeuristicSolver::solve(const engine::Problem& problem) {
  const auto& config = engine::configuration(problem.config);
  components_ = static_cast<int>(config.components.size());
  RAVE_CHECK(components_ >= 1 && components_ <= 2, "configurations have one or two components");
  const LayoutModel* models[2] = {&layout_model(problem.config, 0), nullptr};
  if (components_ == 2) models[1] = &layout_model(problem.config, 1);
  build_views(problem, components_, models, views_.data());
  for (int c = 0; c < components_; ++c) {
    AllowedHypotheses allowed;
    if (options_.use_rules && c < static_cast<int>(problem.rules.size()))
      allowed = allowed_by(*models[c], problem.rules[c]);
    fits_[c].fit(*models[c], views_[c], allowed, options_.occam);
  }
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
  if (s.verdict == Verdict::kNone) {
    s.answer = fallback_answer();
    for (int c = 0; c < components_ && s.reason.empty(); ++c) {
      const std::string gap = fits_[c].context_gap();
      if (!gap.empty())
        s.reason = std::string(layout_model(problem.config, c).name) + ": no " + gap + " rule fits the context";
    }
    if (s.reason.empty()) s.reason = "no candidate completes the rules the context satisfies";
  }
  return s;
}

double HeuristicSolver::score(int candidate) const {
  double total = 0;
  for (int c = 0; c < components_ && total != kNoScore; ++c) total += fits_[c].score(candidate);
  return total;
}

Reading HeuristicSolver::reading(int candidate) const {
  Reading r;
  for (int c = 0; c < components_; ++c)
    if (fits_[c].score(candidate, &r.components[c]) == kNoScore) return Reading{};
  r.count = components_;
  return r;
}

// No candidate is explained: answer the one explained in the most components (lowest index on ties).
int HeuristicSolver::fallback_answer() const {
  int answer = 0, most = -1;
  for (int i = 0; i < 8; ++i) {
    int explained = 0;
    for (int c = 0; c < components_; ++c) explained += fits_[c].consistent(i) ? 1 : 0;
    if (explained > most) most = explained, answer = i;
  }
  return answer;
}

}  // namespace rave::solver
