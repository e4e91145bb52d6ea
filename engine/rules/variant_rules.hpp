#pragma once
// The rule table a variant draws from (docs/variants.md), per configuration, component and split:
// the table of spec/raven.md 4.1, less Arithmetic on Size and Color under a value regime (a sum of
// odd levels is even, and the upper half of a range cannot hold a sum), less the held-out pairs in
// train/val; a held-out attribute is Constant in train/val and ruled by its other rows in test
// (in each component where one of them can hold). Test problems of held-out-pairs must contain one
// of the pairs (`required`). Rows stay equally likely among those left, parameters uniform.
//
//   const VariantRules& t = variant_rules(ConfigId::kCenterSingle, v, Split::kTrain);
//   for (const RuleRow& row : t.rows[0][3]) ...        // component 0, Color
//   std::string why = variant_rules_defect(ConfigId::kCenterSingle, v, Split::kTest);  // "": fine
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/configuration.hpp"
#include "engine/model/variant.hpp"
#include "engine/rules/rule_choices.hpp"
#include "engine/rules/rule_table.hpp"

namespace rave::engine {

/// The rows of one component, per group (0 Number/Position, 1 Type, 2 Size, 3 Color).
using GroupRows = std::array<std::vector<RuleRow>, kNumRuleGroups>;

/// A variant's rule table for one configuration and split.
struct VariantRules {
  std::vector<GroupRows> rows;     ///< per component
  std::vector<RulePair> required;  ///< held-out-pairs, test: every problem holds one of these
  bool original = true;            ///< the spec's table in every component, nothing required
  /// Per component, the rows' rules that can hold in its layout on the variant's N columns, for
  /// drawing without rejection (rule_choices.hpp).
  std::vector<ComponentChoices> choices;
  /// Probability of drawing `rule` in `group` of `component` before pruning (0 when not a row).
  double prior(int component, int group, const Rule& rule) const;
};

/// The table of `id` under `variant` for problems of `split` (train and val share one). Built once
/// per key, thread-safe; the spec's table itself for a variant without a rule regime (its choices
/// those of the variant's grid and values).
const VariantRules& variant_rules(ConfigId id, const Variant& variant, std::optional<Split> split);

/// Why `id` cannot be generated under `variant` in `split` ("" when it can): a group of a component
/// left without a rule that fits its ranges, or a required pair that cannot occur.
std::string variant_rules_defect(ConfigId id, const Variant& variant, Split split);

}  // namespace rave::engine
