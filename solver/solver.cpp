#include "solver/solver.hpp"

namespace rave::solver {

std::string_view backend_name(Backend backend) {
  return backend == Backend::kZ3 ? "z3" : "heuristic";
}

std::optional<Backend> parse_backend(std::string_view name) {
  if (name == "heuristic") return Backend::kHeuristic;
  if (name == "z3") return Backend::kZ3;
  return std::nullopt;
}

Solver::Solver(Backend backend, SolveOptions options, Z3Budget budget)
    : solver_(std::in_place_type<HeuristicSolver>, options) {
  if (backend == Backend::kZ3) solver_.emplace<Z3Solver>(options, budget);
}

Solution Solver::solve(const engine::Problem& problem) {
  return std::visit([&](auto& s) { return s.solve(problem); }, solver_);
}

Reading Solver::reading(int candidate) const {
  return std::visit([&](const auto& s) { return s.reading(candidate); }, solver_);
}

Solution solve_rule_free(const engine::Problem& problem) {
  thread_local Solver solver(Backend::kHeuristic);  // a Solver is not shared between threads
  return solver.solve(problem);
}

bool proves_answer_unique(const engine::Problem& problem, const Solution& solution) {
  return solution.verdict == Verdict::kUnique && problem.target && solution.answer &&
         *solution.answer == *problem.target;
}

}  // namespace rave::solver
