#pragma once
// The context-blind audit of docs/answer-sets.md#the-context-blind-shortcut: pick the candidate
// that shares the most attribute values (per component: Number, slot set, and the Type/Size/Color
// tuples over entities) with the other seven, without looking at the matrix. On RAVEN answer sets
// it finds the answer about 98% of the time, on I-RAVEN about 12.5% (chance), on RAVEN-FAIR low
// (~24%). A dataset whose answers this finds far above chance can be solved without reasoning.
//
//   int guess = context_blind_choice(problem.candidates);
//   bool hit = guess == *problem.target;
//   double acc = context_blind_audit(problems).accuracy();
#include <array>
#include <span>

#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine {

/// Number of attribute values panels `a` and `b` share: per component (up to the smaller component
/// count) one each for equal Number, equal slot set, equal Type, Size and Color tuples (entity
/// order).
int shared_values(const Panel& a, const Panel& b);
/// Per candidate, the sum of shared_values with each of the other seven.
std::array<int, kCandidates> context_blind_scores(const std::array<Panel, kCandidates>& candidates);
/// Index of the candidate sharing the most attribute values with the others (lowest index on ties).
int context_blind_choice(const std::array<Panel, kCandidates>& candidates);

/// The "values seen in the context" audit (docs/answer-sets.md#values-seen-in-the-context): per
/// candidate, the share of its Type, Size and Color values (every entity of every component) that
/// some context panel shows for the same attribute of the same component. Picking the candidate
/// with the largest share is a shortcut wherever distractors draw their new values from a range
/// the matrix barely covers (wide `--values`).
struct SeenShare {
  int seen = 0, total = 0;
};
std::array<SeenShare, kCandidates> values_seen_shares(const Problem& problem);
/// The expected accuracy of that pick with ties broken at random: 1/k when the answer is among k
/// candidates of the largest share, else 0 (0 too when the target is unknown).
double values_seen_credit(const Problem& problem);

/// Fraction of problems (with known targets) where context_blind_choice finds the answer.
struct BlindAudit {
  int problems = 0;
  int hits = 0;
  double accuracy() const { return problems == 0 ? 0.0 : static_cast<double>(hits) / problems; }
};
/// Audits every problem with a known target (others are skipped).
BlindAudit context_blind_audit(std::span<const Problem> problems);
/// The same, one result per configuration (indexed by config_index).
std::array<BlindAudit, kNumConfigs> context_blind_audit_by_config(
    std::span<const Problem> problems);

}  // namespace rave::engine
