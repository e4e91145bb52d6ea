#pragma once
// Internal to the sampler: the group-0 rule of one component (Number/Position,
// docs/rules.md#number-and-position-rules) as the stateful object the original uses. One object
// serves the 6 applications of a problem (col1 -> col2 and col2 -> col3 of rows 1-3, in that
// order): Arithmetic keeps a one-slot memory pushed at col2 and popped at col3, Distribute_Three a
// call counter 0..5 and its value triples.
//
//   NumberPositionRule rule(group.rules[0], frame);
//   ComponentPanel col2 = rule.apply(col1, rng);   // may rewrite col1 (D3, rows 2-3)
//   ComponentPanel col3 = rule.apply(col2, rng);
#include <array>
#include <optional>
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
  ComponentPanel arithmetic_number(const ComponentPanel& reference, Rng& rng);
  ComponentPanel arithmetic_position(const ComponentPanel& reference, Rng& rng);
  ComponentPanel distribute_number(ComponentPanel& reference, Rng& rng);
  ComponentPanel distribute_position(ComponentPanel& reference, Rng& rng);
  std::vector<int> draw_other_set(int count, std::span<const std::vector<int>> taken, Rng& rng) const;
  int d3_level(int row, int col) const { return d3_levels_[d3_index(row, col)]; }
  const std::vector<int>& d3_set(int row, int col) const { return d3_sets_[d3_index(row, col)]; }
  std::size_t d3_index(int row, int col) const {
    return static_cast<std::size_t>(rows_[static_cast<std::size_t>(row)][static_cast<std::size_t>(col)]);
  }

  Rule rule_;
  ComponentFrame frame_;
  std::optional<int> number_memory_;                 ///< Arithmetic Number: col1's level
  std::optional<std::vector<int>> position_memory_;  ///< Arithmetic Position: col1's slots
  int count_ = 0;                                    ///< Distribute_Three: call 0..5
  std::array<int, 3> d3_levels_{};                   ///< D3 Number: a (row-1 col1), b, c
  std::array<std::vector<int>, 3> d3_sets_;          ///< D3 Position: p0 (row-1 col1), p1, p2
  LatinRows rows_{};
};

}  // namespace rave::engine::internal
