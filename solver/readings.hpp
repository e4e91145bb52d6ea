#pragma once
// Solving a problem whose panels are known only up to several readings each (perception's panels
// that render identically: O-IG squares of Size 2 and 3). The solver marginalises over them: every
// combination of the context panels' readings is solved with each reading of each candidate, and a
// candidate's score sums the posterior over them (the heuristic's scores are probabilities of the
// symbols; the image's probability is their sum) or, with Z3, takes the best. Symbols in, a
// solution out: no perception type (jobs/from_pixels.hpp hands perception's readings here).
//
//   Solver solver(Backend::kHeuristic, readings_options());
//   Solution s = solve_readings(solver, ConfigId::kOutInGrid, {}, readings);  // [i]: panel i's
#include <array>
#include <vector>

#include "engine/model/problem.hpp"
#include "solver/solver.hpp"

namespace rave::solver {

/// At most this many combinations of the context panels' readings are solved (the first ones in
/// mixed-radix order); perception hands at most kMaxPanelReadings per panel, rarely more than two.
inline constexpr int kMaxReadingCombinations = 4096;

/// The options for solving readings: `base` without Angle (readings know angles only up to
/// identical renders), and (for Z3) a score for a unique answer too, which combining readings
/// needs.
SolveOptions readings_options(SolveOptions base = {});

/// The rule assignment explaining each candidate (count 0 when none does), under the
/// combination of readings that scored it best.
using CandidateReadings = std::array<Reading, engine::kCandidates>;

/// Per panel (file order), its readings: each non-empty, [0] first.
using PanelReadings = std::vector<std::vector<engine::Panel>>;

/// Solves a problem of `config` and `variant` (an N x N one reads N*N+7 panels) whose panels are
/// known up to `readings`. With `explained`, also writes what explains each consistent candidate.
Solution solve_readings(Solver& solver, engine::ConfigId config, const engine::Variant& variant,
                        const PanelReadings& readings, CandidateReadings* explained = nullptr);

}  // namespace rave::solver
