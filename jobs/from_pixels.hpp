#pragma once
// Solving from pixels: perception's readings of the 16 panels (perception/perceive.hpp) handed to
// the solver, which marginalises over the readings a panel may have (solver/readings.hpp). Angle
// is left out (perceived angles are known only up to identical renders; solver::readings_options).
// An answer whose image another consistent candidate shares exactly is `ambiguous` with the reason
// "identical images": no reader of the pictures can tell them apart.
//
//   Solver solver(Backend::kHeuristic, solver::readings_options());
//   Solution s = solve_perceived(solver, perception::perceive(npz.image()));
#include "perception/perceive.hpp"
#include "solver/readings.hpp"
#include "solver/solver.hpp"

namespace rave::jobs {

/// Solves a perceived problem: unrecognised panels give kNone with perception's failure as the
/// reason; an answer whose image another consistent candidate shares gives kAmbiguous, reason
/// "identical images: candidates i and j".
solver::Solution solve_perceived(solver::Solver& solver,
                                 const perception::PerceivedProblem& perceived,
                                 solver::CandidateReadings* explained = nullptr);

}  // namespace rave::jobs
