#pragma once
// Both solver backends on the same problems, for the tests that hold them against each other.
//
//   for_both_backends(problems, [&](std::size_t i, bool use_rules, const Solution& heuristic,
//                                   const Solution& z3, const Z3Solver& solver) { ... });
#include <cstddef>
#include <functional>
#include <vector>

#include "engine/model/problem.hpp"
#include "solver/solution.hpp"
#include "solver/z3_backend.hpp"

namespace rave::solver {

/// What a test checks of problem `i`'s two solutions (`solver` is the Z3 backend that answered).
using BackendCheck = std::function<void(std::size_t i, bool use_rules, const Solution& heuristic,
                                        const Solution& z3, const Z3Solver& solver)>;

/// Solves every problem with the heuristic and the Z3 backend, without the rule names and then
/// with them, and hands each pair of solutions to `check`.
void for_both_backends(const std::vector<engine::Problem>& problems, const BackendCheck& check);

}  // namespace rave::solver
