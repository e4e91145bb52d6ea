#include "tests/solver/backends_support.hpp"

#include "solver/heuristic.hpp"

namespace rave::solver {

void for_both_backends(const std::vector<engine::Problem>& problems, const BackendCheck& check) {
  for (bool use_rules : {false, true}) {
    HeuristicSolver heuristic({.use_rules = use_rules});
    Z3Solver z3({.use_rules = use_rules});
    for (std::size_t i = 0; i < problems.size(); ++i) {
      const Solution h = heuristic.solve(problems[i]);
      const Solution z = z3.solve(problems[i]);
      check(i, use_rules, h, z, z3);
    }
  }
}

}  // namespace rave::solver
