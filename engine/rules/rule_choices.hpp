#pragma once
// Rule sampling without rejection (docs/rules.md#sampling-and-pruning, docs/variants.md): for each
// group of each component, the (row, parameter) pairs of a rule table that can hold in the
// component's layout on N columns, each with an integer weight proportional to its prior (rows
// equally likely, then parameters uniform). Narrowing a group touches only its own attribute's
// range, so the rejection sampler accepts a try iff every group's rule can hold on its own, and its
// accepted groups are independent, each distributed as its prior restricted to what can hold: one
// uniform draw below a group's total weight per group gives exactly that distribution, whatever the
// acceptance rate (1/64,000 for O-IC at N = 10).
//
//   GroupChoices size = group_choices(2, rule_rows(2), original_constraints(layout), /*grid=*/10);
//   const Rule& rule = size.draw(rng);
//   double p = size.probability(rule);      // weight / total
#include <array>
#include <span>
#include <vector>

#include "common/random.hpp"
#include "engine/model/constraints.hpp"
#include "engine/rules/rule_table.hpp"

namespace rave::engine {

/// A rule that can hold and its weight (prior times a common factor: an integer, so draws are exact).
struct WeightedRule {
  Rule rule;
  int weight = 0;
};

/// What one group of one component can draw.
struct GroupChoices {
  std::vector<WeightedRule> rules;  ///< in the table's order, every weight > 0
  int total = 0;                    ///< sum of the weights; 0 when no rule can hold
  /// A rule with probability weight / total (one Rng::below(total)); `total` must be > 0.
  const Rule& draw(Rng& rng) const;
  /// The probability draw() gives `rule` (0 when it cannot hold or is not in the table).
  double probability(const Rule& rule) const;
};

/// The four groups of one component (0 Number/Position, 1 Type, 2 Size, 3 Color).
using ComponentChoices = std::array<GroupChoices, kNumRuleGroups>;

/// The choices of one group: `rows` (a rule table's rows of group `group`) restricted to the rules
/// that narrow `original` to a non-empty range on `grid` columns.
GroupChoices group_choices(int group, std::span<const RuleRow> rows,
                           const LayoutConstraints& original, int grid);

}  // namespace rave::engine
