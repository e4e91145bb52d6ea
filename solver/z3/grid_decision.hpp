#pragma once
// The Z3 backend on N x N problems (docs/solver.md#n-x-n-matrices): the grid solver's rule checks
// (solver/grid/grid_fit.hpp) stated as constraints and decided by Z3. Per component an integer
// selector picks the Number/Position hypothesis and one per entity attribute picks Type, Size and
// Color hypotheses; "selector = j -> the answer is a candidate hypothesis j holds for", and under
// it each attribute's chosen hypothesis must hold for the answer too. The consistent candidates
// are enumerated by blocking each answer found, and each one that competes is scored by Z3's
// optimiser: the largest log-posterior of a reading that explains it. Internal to the Z3 backend.
//
//   GridDecision d = decide_grid(ctx, solver, params, fits, /*score_unique=*/false);
//   d.solution.verdict;   d.readings[*d.solution.answer];
#include <z3++.h>

#include <array>
#include <vector>

#include "solver/grid/grid_fit.hpp"
#include "solver/solution.hpp"

namespace rave::solver::z3enc {

/// What Z3 decided.
struct GridDecision {
  Solution solution;
  std::array<Reading, engine::kCandidates>
      readings{};  ///< a reading per consistent candidate (the best when ranked)
  int checks = 0;  ///< Z3 checks run
};

/// Decides the problem whose components' tables are `fits` with `solver` (its assertions are left
/// as they were: push/pop); `budget` holds rlimit and timeout for the optimiser. A check Z3 cannot
/// settle makes the verdict kUnknown (reason set, no answer).
GridDecision decide_grid(z3::context& ctx, z3::solver& solver, const z3::params& budget,
                         const std::vector<GridComponentFit>& fits, bool score_unique);

}  // namespace rave::solver::z3enc
