#pragma once
// Internal to the sampler: the rule on one entity attribute (Type, Size or Color) of one component
// (docs/rules.md#type-size-and-color-rules) as the stateful object the original uses. One object
// serves the 6 applications of a problem in order (col1 -> col2, col2 -> col3 of rows 1-3). Every
// non-Constant rule writes one value to all entities of the target, and several also rewrite the
// reference (col1) in place: Progression's first-column flag, Arithmetic's memory, its Color-only
// call count and white alarm, and Distribute_Three's counter and triple are all kept here.
//
//   EntityRule size(group.rules[2], frame);
//   size.apply(col1, col2, rng);   // may rewrite col1's Size levels
//   size.apply(col2, col3, rng);
#include <array>
#include <optional>

#include "engine/rules/internal/layout_sampling.hpp"

namespace rave::engine::internal {

class EntityRule {
 public:
  /// `rule` must be a rule of group 1, 2 or 3 with a known parameter.
  EntityRule(const Rule& rule, const ComponentFrame& frame);

  /// Applies the rule with `reference` as the previous column and `target` as the next one.
  void apply(ComponentPanel& reference, ComponentPanel& target, Rng& rng);

 private:
  void progression(ComponentPanel& reference, ComponentPanel& target);
  void arithmetic_size(ComponentPanel& reference, ComponentPanel& target, Rng& rng);
  void arithmetic_color(ComponentPanel& reference, ComponentPanel& target, Rng& rng);
  void distribute_three(ComponentPanel& reference, ComponentPanel& target, Rng& rng);
  int level(const ComponentPanel& panel) const;        ///< first entity's level
  void set_all(ComponentPanel& panel, int level) const;  ///< value consistency

  Rule rule_;
  int Entity::*member_ = nullptr;  ///< &Entity::type, ::size or ::color
  Range range_;                    ///< the attribute's narrowed range
  bool first_col_ = true;          ///< Progression: next call is a col1 -> col2 step
  std::optional<int> memory_;      ///< Arithmetic: col1's level, pushed at col2, popped at col3
  int color_calls_ = 0;            ///< Arithmetic Color: calls so far (1..6)
  bool white_alarm_ = false;       ///< Arithmetic Color: row 1's col2 level was 0
  int count_ = 0;                  ///< Distribute_Three: call 0..5
  std::array<int, 3> d3_values_{};
  LatinRows rows_{};
};

}  // namespace rave::engine::internal
