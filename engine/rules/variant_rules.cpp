#include "engine/rules/variant_rules.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "common/error.hpp"
#include "engine/model/constraints.hpp"
#include "engine/model/variant_space.hpp"

namespace rave::engine {
namespace {

constexpr std::array<RuleAttr, kNumRuleGroups> kGroupAttr{
    RuleAttr::kNumberPosition, RuleAttr::kType, RuleAttr::kSize, RuleAttr::kColor};

// Whether some parameter of `row` fits the layout's ranges at this grid.
bool row_fits(int group, const RuleRow& row, const LayoutSpec& layout, int grid) {
  const int none = 0;
  const std::span<const int> params =
      row.params.empty() ? std::span<const int>(&none, 1) : row.params;
  for (int value : params) {
    LayoutConstraints c = original_constraints(layout);
    if (narrow_rule(group,
                    Rule{.name = row.name, .attr = row.attr, .value = value, .value_known = true},
                    c, grid))
      return true;
  }
  return false;
}

bool is_held_out(const Variant& v, const RuleRow& row) {
  return std::any_of(v.held_out_pairs.begin(), v.held_out_pairs.end(),
                     [&](const RulePair& p) { return p.attr == row.attr && p.name == row.name; });
}

// The rows of one group of one component (see the header).
std::vector<RuleRow> group_rows(int group, const Variant& v, bool test, const LayoutSpec& layout) {
  std::vector<RuleRow> rows;
  for (const RuleRow& row : rule_rows(group)) {
    if (is_value_regime(v.regime) && group >= 2 && row.name == RuleName::kArithmetic) continue;
    if (v.regime == Regime::kHeldOutPairs && !test && is_held_out(v, row)) continue;
    rows.push_back(row);
  }
  if (v.regime != Regime::kHeldOutAttribute ||
      kGroupAttr[static_cast<std::size_t>(group)] != *v.held_out_attr)
    return rows;
  const auto is_constant = [](const RuleRow& row) { return row.name == RuleName::kConstant; };
  std::vector<RuleRow> ruled;
  std::copy_if(rows.begin(), rows.end(), std::back_inserter(ruled),
               [&](const RuleRow& r) { return !is_constant(r); });
  const bool can_rule = std::any_of(ruled.begin(), ruled.end(), [&](const RuleRow& r) {
    return row_fits(group, r, layout, v.grid);
  });
  if (test && can_rule) return ruled;
  rows.erase(
      std::remove_if(rows.begin(), rows.end(), [&](const RuleRow& r) { return !is_constant(r); }),
      rows.end());
  return rows;
}

std::unique_ptr<VariantRules> build_rules(ConfigId id, const Variant& v, Split split) {
  const bool test = split == Split::kTest;
  const Configuration& config = variant_space(id, v, split).config;
  auto out = std::make_unique<VariantRules>();
  out->original = v.regime == Regime::kNeutral;
  for (const ComponentSpec& component : config.components) {
    GroupRows rows;
    ComponentChoices choices;
    for (int g = 0; g < kNumRuleGroups; ++g) {
      auto& group = rows[static_cast<std::size_t>(g)];
      group = group_rows(g, v, test, component.layout);
      choices[static_cast<std::size_t>(g)] =
          group_choices(g, group, original_constraints(component.layout), v.grid);
    }
    out->rows.push_back(std::move(rows));
    out->choices.push_back(std::move(choices));
  }
  if (v.regime == Regime::kHeldOutPairs && test) out->required = v.held_out_pairs;
  return out;
}

}  // namespace

double VariantRules::prior(int component, int group, const Rule& rule) const {
  const auto& list = rows.at(static_cast<std::size_t>(component))[static_cast<std::size_t>(group)];
  for (const RuleRow& row : list) {
    if (row.name != rule.name || row.attr != rule.attr) continue;
    const double p_row = 1.0 / static_cast<double>(list.size());
    if (row.params.empty()) return rule.value == 0 ? p_row : 0.0;
    for (int value : row.params)
      if (value == rule.value) return p_row / static_cast<double>(row.params.size());
    return 0.0;
  }
  return 0.0;
}

const VariantRules& variant_rules(ConfigId id, const Variant& v, std::optional<Split> split) {
  const bool regime = v.regime != Regime::kNeutral;
  RAVE_CHECK(!regime || split.has_value(), "a regime needs the problem's split");
  const Split side = regime && *split == Split::kTest ? Split::kTest : Split::kTrain;
  if (!regime && v.grid == kDefaultGrid && v.values == 0) {  // the original: no lock on its path
    static const std::array<std::unique_ptr<VariantRules>, kNumConfigs> originals = [] {
      std::array<std::unique_ptr<VariantRules>, kNumConfigs> all;
      for (int c = 0; c < kNumConfigs; ++c)
        all[static_cast<std::size_t>(c)] = build_rules(static_cast<ConfigId>(c), {}, Split::kTrain);
      return all;
    }();
    return *originals[static_cast<std::size_t>(config_index(id))];
  }
  using Key = std::tuple<int, int, int, int, bool, std::string>;
  const Key key{config_index(id),     v.grid,          v.values, static_cast<int>(v.regime),
                side == Split::kTest, hold_out_text(v)};
  static std::mutex mutex;
  static std::map<Key, std::unique_ptr<VariantRules>> cache;
  std::lock_guard lock(mutex);
  auto& slot = cache[key];
  if (!slot) slot = build_rules(id, v, side);
  return *slot;
}

std::string variant_rules_defect(ConfigId id, const Variant& v, Split split) {
  const VariantRules& table = variant_rules(id, v, split);
  const Configuration& config = variant_space(id, v, split).config;
  const std::string where =
      std::string(config.folder) + " (" + std::string(split_name(split)) + ")";
  bool required_found = table.required.empty();
  for (std::size_t c = 0; c < config.components.size(); ++c) {
    const LayoutSpec& layout = config.components[c].layout;
    for (int g = 0; g < kNumRuleGroups; ++g) {
      bool any = false;
      for (const RuleRow& row : table.rows[c][static_cast<std::size_t>(g)]) {
        if (!row_fits(g, row, layout, v.grid)) continue;
        any = true;
        for (const RulePair& p : table.required)
          required_found = required_found || (p.attr == row.attr && p.name == row.name);
      }
      if (!any)
        return where + ": no " +
               std::string(rule_attr_text(kGroupAttr[static_cast<std::size_t>(g)])) +
               " rule can hold in " + std::string(layout.name) + " under these options";
    }
  }
  if (!required_found)
    return where + ": none of the held-out pairs " + hold_out_text(v) + " can occur in it";
  return {};
}

}  // namespace rave::engine
