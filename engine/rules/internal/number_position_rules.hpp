#pragma once
// Internal to the sampler: the group-0 rule of one component (Number/Position, spec/raven.md 6.2)
// as the stateful object the original uses. One object serves the N(N-1) applications of a problem
// (col1 -> col2, ..., col(N-1) -> colN of rows 1..N, in that order; 6 on the original 3x3):
// Arithmetic keeps the running sum (or difference) of the row's first N-1 counts or slot sets,
// Distribute_N its N values (levels or slot sets) and row shifts (docs/variants.md).
//
//   NumberPositionRule rule(group.rules[0], frame);
//   ComponentPanel col2 = rule.apply(col1, rng);   // may rewrite col1 (D3, rows 2-3)
//   ComponentPanel col3 = rule.apply(col2, rng);
#include <span>
#include <vector>

#include "engine/rules/internal/layout_sampling.hpp"

namespace rave::engine::internal {

class NumberPositionRule {
 public:
  /// `rule` must be a group-0 rule with a known parameter; `frame` is its component's.
  NumberPositionRule(const Rule& rule, const ComponentFrame& frame);

  /// The next panel of the row built from `reference` (docs/rules.md#number-and-position-rules).
  /// Distribute_Three rewrites the reference in place at the start of rows 2 and 3 (col1 resampled,
  /// docs/rules.md#number-and-position-rules).
  ComponentPanel apply(ComponentPanel& reference, Rng& rng);

 private:
  ComponentPanel progression(const ComponentPanel& reference, Rng& rng) const;
  ComponentPanel arithmetic_number(const ComponentPanel& reference, int col, Rng& rng);
  ComponentPanel arithmetic_position(const ComponentPanel& reference, int col, Rng& rng);
  std::vector<int> draw_position_operand(int col, Rng& rng) const;
  ComponentPanel distribute_number(ComponentPanel& reference, int row, int col, Rng& rng);
  ComponentPanel distribute_position(ComponentPanel& reference, int row, int col, Rng& rng);
  std::vector<int> draw_other_set(int count, std::span<const std::vector<int>> taken,
                                  Rng& rng) const;

  Rule rule_;
  ComponentFrame frame_;
  int step_ = 0;                ///< applications so far, 0 .. N(N-1)-1
  int count_sum_ = 0;           ///< Arithmetic Number: running sum/difference of counts
  std::vector<int> slot_sum_;   ///< Arithmetic Position: running union/difference, sorted
  std::vector<int> dn_levels_;  ///< Distribute_N Number: row-1 col1's level, then N-1 more
  std::vector<std::vector<int>> dn_sets_;  ///< Distribute_N Position: row-1 col1's set, N-1 more
  RowShifts rows_;
};

}  // namespace rave::engine::internal
