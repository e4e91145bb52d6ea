#pragma once
// Internal to the sampler: the rule on one entity attribute (Type, Size or Color) of one component
// (spec/raven.md 6.3) as the stateful object the original uses. One object serves the N(N-1)
// applications of a problem in order (col1 -> col2, ..., col(N-1) -> colN of rows 1..N; 6 on the
// original 3x3). Every non-Constant rule writes one value to all entities of the target, and
// several also rewrite the reference (col1) in place. The step counter, Arithmetic's running sum
// (or difference) of the row's first N-1 columns and its white alarm, and Distribute_N's values and
// row shifts are all kept here (docs/variants.md generalizes each rule to N columns).
//
//   EntityRule size(group.rules[2], frame);
//   size.apply(col1, col2, rng);   // may rewrite col1's Size levels
//   size.apply(col2, col3, rng);
#include <vector>

#include "engine/rules/internal/layout_sampling.hpp"

namespace rave::engine::internal {

class EntityRule {
 public:
  /// `rule` must be a rule of group 1, 2 or 3 with a known parameter.
  EntityRule(const Rule& rule, const ComponentFrame& frame);

  /// Applies the rule with `reference` as the previous column and `target` as the next one.
  void apply(ComponentPanel& reference, ComponentPanel& target, Rng& rng);

 private:
  void progression(ComponentPanel& reference, ComponentPanel& target, int col) const;
  void arithmetic(ComponentPanel& reference, ComponentPanel& target, int row, int col, Rng& rng);
  int first_operand(ComponentPanel& reference, int row, int col, Rng& rng);
  int draw_operand(int row, int col, Rng& rng);
  void distribute(ComponentPanel& reference, ComponentPanel& target, int row, int col, Rng& rng);
  int level(const ComponentPanel& panel) const;          ///< first entity's level
  void set_all(ComponentPanel& panel, int level) const;  ///< value consistency

  Rule rule_;
  int Entity::*member_ = nullptr;  ///< &Entity::type, ::size or ::color
  Range range_;                    ///< the attribute's narrowed range
  Range original_;                 ///< the attribute's range before pruning
  int grid_ = kDefaultGrid;        ///< N
  int unit_ = 0;                   ///< Arithmetic: 1 on 1-based levels (Size), 0 on raw (Color)
  int step_ = 0;                   ///< applications so far, 0 .. N(N-1)-1
  int sum_ = 0;                    ///< Arithmetic: running sum/difference of operands (+ unit each)
  bool white_alarm_ = false;       ///< Arithmetic Color: row 1's middle columns were all 0
  std::vector<int> values_;        ///< Distribute_N: the N values
  RowShifts rows_;
};

}  // namespace rave::engine::internal
