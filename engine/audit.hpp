#pragma once
// The context-blind audit of spec/answer-sets.md 4: pick the candidate that shares the most
// attribute values (per component: Number, slot set, and the Type/Size/Color tuples over entities)
// with the other seven, without looking at the matrix. On RAVEN answer sets it finds the answer
// about 98% of the time, on I-RAVEN about 12.5% (chance), on RAVEN-FAIR low (~24%).
//
//   int guess = context_blind_choice(problem.candidates);
//   bool hit = guess == *problem.target;
#include <array>
#include <span>

#include "engine/problem.hpp"

namespace rave::engine {

/// Index of the candidate sharing the most attribute values with the others (lowest index on ties).
int context_blind_choice(const std::array<Panel, 8>& candidates);

/// Fraction of problems (with known targets) where context_blind_choice finds the answer.
struct BlindAudit {
  int problems = 0;
  int hits = 0;
  double accuracy() const { return problems == 0 ? 0.0 : static_cast<double>(hits) / problems; }
};
BlindAudit context_blind_audit(std::span<const Problem> problems);

}  // namespace rave::engine
