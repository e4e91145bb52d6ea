#include "jobs/from_pixels.hpp"

#include <algorithm>
#include <string>

namespace rave::jobs {

solver::Solution solve_perceived(solver::Solver& solver,
                                 const perception::PerceivedProblem& perceived,
                                 solver::CandidateReadings* explained) {
  if (!perceived.recognised) {
    solver::Solution none;
    none.log_score.fill(solver::kNoScore);
    none.reason = perceived.failure;
    return none;
  }
  solver::Solution s = solver::solve_readings(solver, perceived.config, perceived.variant,
                                              perceived.alternatives, explained);
  if (!s.answer) return s;
  for (const auto& [i, j] : perceived.identical_candidates) {
    const int twin = i == *s.answer ? j : j == *s.answer ? i : -1;
    if (twin < 0 || !((s.consistent >> twin) & 1u)) continue;
    s.verdict = solver::Verdict::kAmbiguous;
    s.reason = "identical images: candidates " + std::to_string(std::min(i, j)) + " and " +
               std::to_string(std::max(i, j));
    break;
  }
  return s;
}

}  // namespace rave::jobs
