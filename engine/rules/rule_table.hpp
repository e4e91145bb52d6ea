#pragma once
// The rule table of docs/rules.md#rule-table: for each of the four rule groups of a component
// (0 Number/Position, 1 Type, 2 Size, 3 Color) the rows a rule is drawn from, each row equally
// likely, then one parameter uniformly. Sampling, pruning and rule abduction all start here.
//
//   for (const RuleRow& row : rule_rows(2)) ...        // Size: Progression, Arithmetic, D3,
//   Constant double p = rule_prior(0, Rule{.name = RuleName::kProgression, .attr =
//   RuleAttr::kNumber, .value = -1});  // 1/28
#include <span>

#include "engine/model/problem.hpp"

namespace rave::engine {

/// Number of rule groups per component (Number/Position, Type, Size, Color).
inline constexpr int kNumRuleGroups = 4;

/// One row of the table: a rule on an attribute and its parameter choices (empty: value 0).
struct RuleRow {
  RuleName name;
  RuleAttr attr;
  std::span<const int> params;  ///< Progression steps {-2,-1,+1,+2} or Arithmetic signs {+1,-1}
};

/// The rows of group `group` (0..3) in the original's order (docs/rules.md#rule-table).
std::span<const RuleRow> rule_rows(int group);
/// Probability of drawing `rule` (name, attr, value) in `group` before pruning: 1/rows * 1/params;
/// 0 when the rule is not in the group's table.
double rule_prior(int group, const Rule& rule);
/// The rule group (0..3) an attribute belongs to (Number, Position, Number/Position -> 0).
int rule_group_of(RuleAttr attr);

}  // namespace rave::engine
