#pragma once
// What a solver says about one problem, as values: the answer, a verdict on whether the answer is
// provably unique, the set of candidates some valid rule assignment explains, their posterior
// scores, and the readings (rule assignments) that explain them.
//
//   Solution s = solver.solve(problem);
//   if (s.answer) use(*s.answer);              // no answer when the verdict is kNone
//   if (s.verdict == Verdict::kAmbiguous) for (int i : s.consistent_candidates()) ...
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "solver/abduction/component_fit.hpp"

namespace rave::solver {

/// kUnique: exactly one candidate is explained; kAmbiguous: several are (the answer is the best
/// ranked); kNone: none is (there is no answer); kUnknown: a budget ran out before the question
/// was settled (Z3 backend; no answer).
enum class Verdict { kUnique, kAmbiguous, kUnknown, kNone };

/// "unique", "ambiguous", "unknown", "none".
std::string_view verdict_name(Verdict verdict);

/// Options shared by both backends.
struct SolveOptions {
  bool use_rules =
      false;          ///< restrict hypotheses to the rule names stored in the problem (--use-rules)
  bool occam = true;  ///< drop noise readings a structured rule explains (abduction.md 2)
  /// Read Angle as docs/rules.md says (per group-0 carry). Off for perceived panels, whose angles
  /// are known only up to identical renders (docs/perception.md): Angle then plays no part.
  bool angle = true;
  /// Z3: score a unique answer too (its most probable assignment), as solve_readings needs to
  /// combine readings; otherwise a unique answer scores 0 (nothing to rank).
  bool score_unique = false;
};

/// A rule assignment for every component of a problem.
struct Reading {
  std::array<ComponentReading, 2> components{};
  int count = 0;  ///< components in use
  friend bool operator==(const Reading&, const Reading&) = default;
};

/// The outcome for one problem.
struct Solution {
  std::optional<int> answer;  ///< best-ranked consistent candidate (0..7); none if none is
  Verdict verdict = Verdict::kNone;
  std::uint8_t consistent = 0;  ///< bit i: candidate i is explained by a valid rule assignment
  /// Log posterior (unnormalised) of each candidate; kNoScore if not explained. Heuristic: summed
  /// over the rule assignments; Z3: of the most probable assignment, computed when two or more
  /// candidates are consistent or score_unique is set (else a unique answer scores 0).
  std::array<double, 8> log_score{};
  std::string reason;  ///< kNone / kUnknown: why, in words

  int consistent_count() const;
  std::vector<int> consistent_candidates() const;  ///< ascending
};

/// Verdict from a consistent set: 0 -> kNone, 1 -> kUnique, more -> kAmbiguous.
Verdict verdict_of(std::uint8_t consistent);

}  // namespace rave::solver
