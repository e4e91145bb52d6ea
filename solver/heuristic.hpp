#pragma once
// The heuristic backend: rule abduction with posterior ranking (docs/solver.md#posterior). Per
// component every valid hypothesis is checked once on the 8 context panels; each candidate is then
// scored as the 9th panel. A candidate is consistent when some valid rule assignment explains it;
// the answer is the consistent candidate with the highest posterior under the generator's own prior
// and sampling distributions (lowest index on exact ties: deterministic). No allocation per
// problem. A problem the 3x3 views cannot hold (another matrix side, widened values, a value
// regime: needs_grid_solver) is solved by the grid solver (solver/grid/grid_solver.hpp) instead.
//
//   HeuristicSolver solver({.use_rules = false});
//   Solution s = solver.solve(problem);          // s.answer, s.verdict, s.consistent
//   Reading why = solver.reading(s.answer);      // rules of the last solved problem
#include <array>
#include <string>

#include "engine/model/problem.hpp"
#include "solver/abduction/component_fit.hpp"
#include "solver/abduction/panel_view.hpp"
#include "solver/grid/grid_solver.hpp"
#include "solver/solution.hpp"

namespace rave::solver {

class HeuristicSolver {
 public:
  explicit HeuristicSolver(SolveOptions options = {});

  /// Solves one problem. Looks only at what the panels show: not the target, the rules (unless
  /// use_rules), the Uniformity levels or the order of the entities; the candidates' order decides
  /// only exact ties (lowest index). Throws InputError when use_rules is set and the problem's
  /// rules are unknown.
  Solution solve(const engine::Problem& problem);
  /// The most probable rule assignment explaining candidate `i` of the last solved problem
  /// (count 0 when candidate `i` is not consistent).
  Reading reading(int candidate) const;
  /// Log posterior of candidate `i` of the last solved problem (kNoScore if not consistent).
  double score(int candidate) const;

  const SolveOptions& options() const { return options_; }

 private:
  std::string none_reason(engine::ConfigId config) const;

  SolveOptions options_;
  int components_ = 0;
  std::array<ComponentView, 2> views_{};
  std::array<ComponentFit, 2> fits_{};
  GridSolver grid_;
  bool last_grid_ = false;  ///< the last problem went to grid_
  Solution last_grid_solution_{};
};

}  // namespace rave::solver
