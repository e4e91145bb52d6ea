#pragma once
// Solving from pixels: perception's readings of the 16 panels (perception/perceive.hpp) handed to
// the solver. A panel may have several readings that render identically (O-IG squares of Size 2
// and 3); the solver marginalises over them: every combination of the context panels' readings
// is solved with each reading of each candidate, and a candidate's score sums the posterior over
// them (the heuristic's scores are probabilities of the symbols; the image's probability is their
// sum) or, with Z3, takes the best. Angle is left out (perceived angles are known only up to
// identical renders; SolveOptions::angle = false). An answer whose image another consistent
// candidate shares exactly is `ambiguous` with the reason "identical images": no reader of the
// pictures can tell them apart.
//
//   Solver solver(Backend::kHeuristic, pixel_options());
//   Solution s = solve_perceived(solver, perception::perceive(npz.image()));
#include <array>
#include <vector>

#include "perception/perceive.hpp"
#include "solver/solver.hpp"

namespace rave::jobs {

/// At most this many combinations of the context panels' readings are solved (the first ones in
/// mixed-radix order); perception hands at most kMaxPanelReadings per panel, rarely more than two.
inline constexpr int kMaxReadingCombinations = 4096;

/// The options for solving perceived panels: `base` without Angle, and (for Z3) a score for a
/// unique answer too, which combining readings needs.
solver::SolveOptions pixel_options(solver::SolveOptions base = {});

/// The rule assignment explaining each candidate (count 0 when none does), under the
/// combination of readings that scored it best.
using CandidateReadings = std::array<solver::Reading, engine::kCandidates>;

/// Per panel (file order), its readings: each non-empty, [0] first.
using PanelReadings = std::vector<std::vector<engine::Panel>>;

/// Solves a problem of `config` and `variant` (an N x N one reads N*N+7 panels) whose panels are
/// known up to `readings`. With `explained`, also writes what explains each consistent candidate.
solver::Solution solve_readings(solver::Solver& solver, engine::ConfigId config,
                                const engine::Variant& variant, const PanelReadings& readings,
                                CandidateReadings* explained = nullptr);

/// Solves a perceived problem: unrecognised panels give kNone with perception's failure as the
/// reason; an answer whose image another consistent candidate shares gives kAmbiguous, reason
/// "identical images: candidates i and j".
solver::Solution solve_perceived(solver::Solver& solver,
                                 const perception::PerceivedProblem& perceived,
                                 CandidateReadings* explained = nullptr);

}  // namespace rave::jobs
