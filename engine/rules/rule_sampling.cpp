// Rule sampling with grammar pruning (docs/rules.md#sampling-and-pruning): rejection sampling over
// the whole draw.
#include <array>
#include <string>

#include "common/error.hpp"
#include "engine/rules/matrix.hpp"
#include "engine/rules/rule_table.hpp"

namespace rave::engine {
namespace {

Rule draw_rule(int group, Rng& rng) {
  const auto rows = rule_rows(group);
  const RuleRow& row = rows[static_cast<std::size_t>(rng.below(static_cast<int>(rows.size())))];
  int value = 0;
  if (!row.params.empty())
    value = row.params[static_cast<std::size_t>(rng.below(static_cast<int>(row.params.size())))];
  return Rule{.name = row.name, .attr = row.attr, .value = value, .value_known = true};
}

// Draws the component's four rules (docs/rules.md#rule-table) and narrows `ranges` as it goes;
// false at the first rule that does not fit the layout (the remaining draws of a rejected try would
// be discarded).
bool draw_fitting_group(Rng& rng, RuleGroup& group, LayoutConstraints& ranges) {
  for (int g = 0; g < kNumRuleGroups; ++g) {
    Rule& rule = group.rules[static_cast<std::size_t>(g)];
    rule = draw_rule(g, rng);
    if (!narrow_rule(g, rule, ranges)) return false;
  }
  return true;
}

constexpr int kMaxComponents = 2;

}  // namespace

// Assumes: the configuration has 1 or 2 components (any other count exhausts the budget).
// Guarantees: the returned groups are distributed exactly as the original's accepted draws: each
// try draws the component count uniformly from {1, 2} and, for every component, one rule per group
// (docs/rules.md#rule-table); a try is accepted iff the count matches and narrow() succeeds for
// every component. A try whose count does not match is rejected before its rules are drawn, and a
// try stops drawing at its first rule that does not fit: the acceptance test factorizes per
// attribute (docs/rules.md#sampling-and-pruning), so the discarded draws would not change the
// accepted distribution nor the number of tries.
std::vector<RuleGroup> sample_rules(const Configuration& config, Rng& rng,
                                    std::vector<LayoutConstraints>& narrowed, int& tries) {
  const std::size_t components = config.components.size();
  std::array<LayoutConstraints, kMaxComponents> originals{};
  for (std::size_t i = 0; i < components && i < originals.size(); ++i)
    originals[i] = original_constraints(config.components[i].layout);
  std::array<RuleGroup, kMaxComponents> groups{};
  std::array<LayoutConstraints, kMaxComponents> ranges{};
  for (tries = 1; tries <= kMaxRuleTries; ++tries) {
    const auto count = static_cast<std::size_t>(1 + rng.below(kMaxComponents));
    if (count != components) continue;  // the Structure is pruned whatever the rules are
    bool fits = true;
    for (std::size_t i = 0; i < count && fits; ++i) {
      ranges[i] = originals[i];
      fits = draw_fitting_group(rng, groups[i], ranges[i]);
    }
    if (!fits) continue;
    narrowed.assign(ranges.begin(), ranges.begin() + static_cast<std::ptrdiff_t>(count));
    return {groups.begin(), groups.begin() + static_cast<std::ptrdiff_t>(count)};
  }
  RAVE_CHECK(false, "rule sampling for " + std::string(config.folder) + " found no fitting rules in " +
                        std::to_string(kMaxRuleTries) + " tries");
  return {};
}

}  // namespace rave::engine
