#include "engine/rules/rule_choices.hpp"

#include <numeric>

#include "common/error.hpp"

namespace rave::engine {
namespace {

// A row's parameters; a parameterless row draws its one value, 0.
std::span<const int> parameters_of(const RuleRow& row) {
  static constexpr int kNone = 0;
  return row.params.empty() ? std::span<const int>(&kNone, 1) : row.params;
}

// The least common multiple of the rows' parameter counts: a parameter of a row with k of them has
// prior (1 / rows) (1 / k), i.e. (lcm / k) / (rows lcm), an integer weight over a common factor.
int common_multiple(std::span<const RuleRow> rows) {
  int lcm = 1;
  for (const RuleRow& row : rows) lcm = std::lcm(lcm, static_cast<int>(parameters_of(row).size()));
  return lcm;
}

}  // namespace

const Rule& GroupChoices::draw(Rng& rng) const {
  RAVE_CHECK(total > 0, "no rule of this group can hold");
  int u = rng.below(total);
  for (const WeightedRule& choice : rules) {
    if (u < choice.weight) return choice.rule;
    u -= choice.weight;
  }
  RAVE_CHECK(false, "rule weights do not sum to their total");
  return rules.back().rule;
}

double GroupChoices::probability(const Rule& rule) const {
  for (const WeightedRule& choice : rules)
    if (choice.rule.name == rule.name && choice.rule.attr == rule.attr &&
        choice.rule.value == rule.value)
      return static_cast<double>(choice.weight) / static_cast<double>(total);
  return 0.0;
}

GroupChoices group_choices(int group, std::span<const RuleRow> rows,
                           const LayoutConstraints& original, int grid) {
  const int lcm = common_multiple(rows);
  GroupChoices out;
  for (const RuleRow& row : rows) {
    const std::span<const int> params = parameters_of(row);
    for (int value : params) {
      const Rule rule{.name = row.name, .attr = row.attr, .value = value, .value_known = true};
      LayoutConstraints narrowed = original;
      if (!narrow_rule(group, rule, narrowed, grid)) continue;
      const int weight = lcm / static_cast<int>(params.size());
      out.rules.push_back({rule, weight});
      out.total += weight;
    }
  }
  return out;
}

}  // namespace rave::engine
