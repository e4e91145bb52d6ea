#pragma once
// The Z3 backend: the abduction question of docs/solver.md#posterior stated as constraints and
// decided by Z3. Panel attributes are terms (the 9th panel's are if-then-else terms over an integer
// answer variable 0..7), each rule group is an integer selector over its valid hypotheses, and each
// hypothesis is an implication "selector = h -> the rule holds on the three rows". After each model
// the answer found is blocked and Z3 is asked again, so the consistent candidates are enumerated
// and the verdict is proved: unique, ambiguous (these candidates), none (no answer), or unknown
// when a budget ran out. Z3 also ranks what it proved: each consistent candidate scores the largest
// log-posterior (the prior and sampling likelihoods of docs/solver.md, solver/abduction/likelihood.hpp)
// of an assignment that explains it, found by Z3's optimiser over the same constraints. Nothing
// here calls the heuristic backend: the two are compared, not combined.
// This header does not include z3++.h; only solver/z3_backend.cpp and solver/z3/ do.
//
//   Z3Solver solver({.use_rules = true}, Z3Budget{.rlimit = 2'000'000});
//   Solution s = solver.solve(problem);   // s.verdict == Verdict::kUnique
//   Reading why = solver.reading(s.answer);
#include <memory>

#include "engine/model/problem.hpp"
#include "solver/solution.hpp"

namespace rave::solver {

/// Limits per Z3 check; 0 means none. rlimit is Z3's deterministic resource counter (same result on
/// every machine); timeout_ms is wall-clock. An exhausted budget makes the verdict kUnknown.
struct Z3Budget {
  unsigned rlimit = 0;
  unsigned timeout_ms = 0;
};

class Z3Solver {
 public:
  explicit Z3Solver(SolveOptions options = {}, Z3Budget budget = {});
  ~Z3Solver();
  Z3Solver(Z3Solver&&) noexcept;
  Z3Solver& operator=(Z3Solver&&) noexcept;

  /// Decides which candidates some valid rule assignment explains and ranks them (see above).
  /// Throws InputError when use_rules is set and the problem's rules are unknown.
  Solution solve(const engine::Problem& problem);
  /// The most probable rule assignment explaining candidate `i` in the last solve (count 0 if
  /// none).
  Reading reading(int candidate) const;
  /// Z3 checks run by the last solve (answer enumeration, ranking, and the reason for `none`).
  int checks() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rave::solver
