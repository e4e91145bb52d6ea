#pragma once
// One entry point over both backends: the heuristic (posterior ranking, no allocation per problem)
// and Z3 (proves the consistent set). Both return the same Solution type; see heuristic.hpp and
// z3_backend.hpp for what each does. A problem the 3x3 encodings cannot read (another matrix side,
// widened values, a value regime: needs_grid_solver) is read by the grid rule checks in both: the
// heuristic ranks (solver/grid/grid_solver.hpp), Z3 decides (solver/z3/grid_decision.hpp).
//
//   Solver solver(Backend::kZ3, {.use_rules = true});
//   Solution s = solver.solve(problem);
//   Reading why = solver.reading(s.answer);
#include <optional>
#include <string_view>
#include <variant>

#include "solver/heuristic.hpp"
#include "solver/z3_backend.hpp"

namespace rave::solver {

enum class Backend { kHeuristic, kZ3 };
/// "heuristic", "z3".
std::string_view backend_name(Backend backend);
std::optional<Backend> parse_backend(std::string_view name);

class Solver {
 public:
  explicit Solver(Backend backend = Backend::kHeuristic, SolveOptions options = {},
                  Z3Budget budget = {});
  /// Solves one problem (see HeuristicSolver::solve, Z3Solver::solve).
  Solution solve(const engine::Problem& problem);
  /// The rule assignment explaining candidate `i` of the last solved problem (count 0 if none).
  Reading reading(int candidate) const;
  Backend backend() const { return solver_.index() == 0 ? Backend::kHeuristic : Backend::kZ3; }

 private:
  std::variant<HeuristicSolver, Z3Solver> solver_;
};

/// The rule-free heuristic solver's solution of `problem` (one solver per calling thread).
Solution solve_rule_free(const engine::Problem& problem);
/// Whether `solution` proves `problem`'s answer unique: the verdict is unique and its answer the
/// target (false without a target). What `rave generate --unique-only` redraws by, and what the RL
/// environment rewards on (evaluation/export/gym.hpp).
bool proves_answer_unique(const engine::Problem& problem, const Solution& solution);

}  // namespace rave::solver
