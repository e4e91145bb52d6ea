// Rule sampling with grammar pruning (docs/rules.md#sampling-and-pruning): the original's rejection
// sampling over the whole draw, or, for variants, direct draws from the rules that can hold.
#include <algorithm>
#include <array>
#include <string>

#include "common/error.hpp"
#include "engine/model/variant_space.hpp"
#include "engine/rules/matrix.hpp"
#include "engine/rules/rule_table.hpp"

namespace rave::engine {
namespace {

Rule draw_rule(std::span<const RuleRow> rows, Rng& rng) {
  const RuleRow& row = rows[static_cast<std::size_t>(rng.below(static_cast<int>(rows.size())))];
  int value = 0;
  if (!row.params.empty())
    value = row.params[static_cast<std::size_t>(rng.below(static_cast<int>(row.params.size())))];
  return Rule{.name = row.name, .attr = row.attr, .value = value, .value_known = true};
}

// Draws the component's four rules (docs/rules.md#rule-table) and narrows `ranges` as it goes;
// false at the first rule that does not fit the layout (the remaining draws of a rejected try would
// be discarded).
bool draw_fitting_group(const GroupRows& rows, int grid, Rng& rng, RuleGroup& group,
                        LayoutConstraints& ranges) {
  for (int g = 0; g < kNumRuleGroups; ++g) {
    Rule& rule = group.rules[static_cast<std::size_t>(g)];
    rule = draw_rule(rows[static_cast<std::size_t>(g)], rng);
    if (!narrow_rule(g, rule, ranges, grid)) return false;
  }
  return true;
}

bool holds_required(std::span<const RulePair> required, std::span<const RuleGroup> groups) {
  if (required.empty()) return true;
  return std::any_of(groups.begin(), groups.end(), [&](const RuleGroup& group) {
    return std::any_of(group.rules.begin(), group.rules.end(), [&](const Rule& rule) {
      return std::any_of(required.begin(), required.end(),
                         [&](const RulePair& p) { return matches(p, rule); });
    });
  });
}

constexpr int kMaxComponents = 2;

[[noreturn]] void no_fitting_rules(const Configuration& config) {
  check_failed("fitting rules",
               "rule sampling for " + std::string(config.folder) + " found no fitting rules in " +
                   std::to_string(kMaxRuleTries) + " tries",
               __FILE__, __LINE__);
}

// Direct draws (MatrixModel::direct_rules): one rule per group of every component from the rules
// that can hold, redrawn whole while the model's required pairs are all missing. The rejection
// sampler's accepted groups are independent across components and groups (its count check does
// not look at the rules, and each group narrows its own range), each distributed as its prior
// restricted to what can hold, which is GroupChoices::draw's distribution; the required pairs then
// condition both alike.
std::vector<RuleGroup> draw_direct(const MatrixModel& model, Rng& rng,
                                   std::vector<LayoutConstraints>& narrowed, int& tries) {
  const Configuration& config = *model.config;
  const std::vector<ComponentChoices>& choices = model.rules->choices;
  std::vector<RuleGroup> groups(choices.size());
  for (tries = 1; tries <= kMaxRuleTries; ++tries) {
    for (std::size_t c = 0; c < choices.size(); ++c)
      for (std::size_t g = 0; g < kNumRuleGroups; ++g) {
        if (choices[c][g].total == 0) no_fitting_rules(config);
        groups[c].rules[g] = choices[c][g].draw(rng);
      }
    if (!holds_required(model.rules->required, groups)) continue;
    auto pruned = prune(config, groups, model.grid);
    RAVE_CHECK(pruned.has_value(), "a rule drawn as fitting does not fit");
    narrowed = std::move(*pruned);
    return groups;
  }
  no_fitting_rules(config);
}

}  // namespace

bool draws_original_rules(const Variant& variant) {
  return variant.grid == kDefaultGrid && variant.values == 0 && variant.regime == Regime::kNeutral;
}

MatrixModel matrix_model(ConfigId id, const Variant& variant, std::optional<Split> split) {
  return MatrixModel{.id = id,
                     .config = &variant_space(id, variant, split).config,
                     .rules = &variant_rules(id, variant, split),
                     .grid = variant.grid,
                     .balanced_answers = variant.values != 0 || variant.grid != kDefaultGrid,
                     .direct_rules = !draws_original_rules(variant)};
}

// Assumes: the configuration has 1 or 2 components (any other count exhausts the budget).
// Guarantees: the returned groups are distributed exactly as the original's accepted draws: each
// try draws the component count uniformly from {1, 2} and, for every component, one rule per group
// (spec 4.1); a try is accepted iff the count matches and narrow() succeeds for every component.
// A try whose count does not match is rejected before its rules are drawn, and a try stops drawing
// at its first rule that does not fit: the acceptance test factorizes per attribute (spec 4.2), so
// the discarded draws would not change the accepted distribution nor the number of tries. A model
// with required pairs also rejects a try holding none of them.
std::vector<RuleGroup> sample_rules(const MatrixModel& model, Rng& rng,
                                    std::vector<LayoutConstraints>& narrowed, int& tries) {
  if (model.direct_rules) return draw_direct(model, rng, narrowed, tries);
  const Configuration& config = *model.config;
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
      fits = draw_fitting_group(model.rules->rows[i], model.grid, rng, groups[i], ranges[i]);
    }
    if (!fits || !holds_required(model.rules->required, std::span(groups).first(count))) continue;
    narrowed.assign(ranges.begin(), ranges.begin() + static_cast<std::ptrdiff_t>(count));
    return {groups.begin(), groups.begin() + static_cast<std::ptrdiff_t>(count)};
  }
  no_fitting_rules(config);
}

std::vector<RuleGroup> sample_rules(const Configuration& config, Rng& rng,
                                    std::vector<LayoutConstraints>& narrowed, int& tries) {
  MatrixModel model = matrix_model(config.id);
  model.config = &config;
  return sample_rules(model, rng, narrowed, tries);
}

}  // namespace rave::engine
