#pragma once
// The solver for problems of any matrix side N and any value range (docs/variants.md,
// docs/solver.md#n-x-n-matrices): rule abduction by checking every rule of the variant's table on
// every row of the whole matrix with each candidate as its last panel (no rules are read unless
// use_rules). A candidate is consistent when, in every component, some Number/Position rule and,
// under its carry, some rule per entity attribute hold; consistent candidates are ranked by the
// prior of their best reading and the likelihood of the last panel's free parts (fresh slot sets,
// noise levels). Confounding attributes follow no rule and are ignored.
//
//   GridSolver solver({.use_rules = false});
//   Solution s = solver.solve(problem);      // s.answer, s.verdict, s.consistent
//   Reading why = solver.reading(*s.answer);
#include <array>
#include <vector>

#include "engine/model/problem.hpp"
#include "solver/grid/grid_view.hpp"
#include "solver/solution.hpp"

namespace rave::solver {

/// Whether the 3x3 solvers cannot read `problem` and the grid solver must: a side other than 3,
/// widened value ranges, or a value regime (levels sampled on a grid or half a range).
bool needs_grid_solver(const engine::Problem& problem);

class GridSolver {
 public:
  explicit GridSolver(SolveOptions options = {});
  /// Solves one problem; throws InputError when use_rules is set and the rules are unknown.
  Solution solve(const engine::Problem& problem);
  /// The best rule assignment explaining candidate `i` of the last problem (count 0 if none).
  Reading reading(int candidate) const;

 private:
  SolveOptions options_;
  std::array<Reading, engine::kCandidates> readings_{};
};

}  // namespace rave::solver
