#pragma once
// What a solver says about one problem, as values: the answer, a verdict on whether the answer is
// provably unique, the set of candidates some valid rule assignment explains, their posterior
// scores, and the readings (rule assignments) that explain them.
//
//   Solution s = solver.solve(problem);
//   if (s.verdict == Verdict::kAmbiguous) for (int i : s.consistent_candidates()) ...
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "solver/component_fit.hpp"

namespace rave::solver {

/// kUnique: exactly one candidate is explained; kAmbiguous: several are (the answer is the best
/// ranked); kNone: none is (the answer is a fallback); kUnknown: a budget ran out before the
/// question was settled (Z3 backend).
enum class Verdict { kUnique, kAmbiguous, kUnknown, kNone };

/// "unique", "ambiguous", "unknown", "none".
std::string_view verdict_name(Verdict verdict);

/// Options shared by both backends.
struct SolveOptions {
  bool use_rules = false;  ///< restrict hypotheses to the rule names stored in the problem (--use-rules)
  bool occam = true;       ///< drop noise readings a structured rule explains (docs/solver.md#posterior)
};

/// A rule assignment for every component of a problem.
struct Reading {
  std::array<ComponentReading, 2> components{};
  int count = 0;  ///< components in use
  friend bool operator==(const Reading&, const Reading&) = default;
};

/// The outcome for one problem.
struct Solution {
  int answer = 0;                      ///< best-ranked candidate (0..7)
  Verdict verdict = Verdict::kNone;
  std::uint8_t consistent = 0;         ///< bit i: candidate i is explained by a valid rule assignment
  std::array<double, 8> log_score{};   ///< log posterior (unnormalised); kNoScore if not explained
  std::string reason;                  ///< kNone / kUnknown: why, in words

  int consistent_count() const;
  std::vector<int> consistent_candidates() const;  ///< ascending
};

/// Verdict from a consistent set: 0 -> kNone, 1 -> kUnique, more -> kAmbiguous.
Verdict verdict_of(std::uint8_t consistent);

}  // namespace rave::solver
