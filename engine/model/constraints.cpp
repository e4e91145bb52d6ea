#include "engine/model/constraints.hpp"

#include <algorithm>
#include <array>

#include "common/error.hpp"
#include "common/math.hpp"

namespace rave::engine {
namespace {

constexpr std::array<int, 4> kSteps{-2, -1, 1, 2};
constexpr std::array<int, 2> kSigns{1, -1};
constexpr std::array<int, 1> kNoParameter{0};

void check_value(const Rule& rule) {
  RAVE_CHECK(rule.value_known, "narrowing needs the rule's parameter (value_known)");
  if (rule.name == RuleName::kProgression)
    RAVE_CHECK(rule.value == 1 || rule.value == -1 || rule.value == 2 || rule.value == -2,
               "Progression step must be +-1 or +-2");
  if (rule.name == RuleName::kArithmetic)
    RAVE_CHECK(rule.value == 1 || rule.value == -1, "Arithmetic sign must be +1 or -1");
}

// Progression on a level range: the N columns L, L+v, ..., L+(N-1)v must fit.
void narrow_progression(Range& range, int v, int grid) {
  if (v > 0)
    range.max -= (grid - 1) * v;
  else
    range.min += (grid - 1) * -v;
}

// Distribute_N needs N distinct levels; false marks the rule invalid.
bool has_levels(const Range& range, int grid) { return range.max - range.min + 1 >= grid; }

// Distribute_N Position needs N distinct slot sets of one count: the counts (levels + 1) with
// C(slots, count) >= N, a contiguous run since C is unimodal; the layout's slots are Number's
// original max + 1 (group 0 is narrowed first). At N = 3 this is the original's "invalid if
// max + 1 < 3, else max -= 1".
bool narrow_distribute_position(Range& number, int grid) {
  const int slots = number.max + 1;
  Range valid{0, -1};
  for (int level = number.min; level <= number.max; ++level) {
    if (binomial(slots, level + 1) < grid) continue;
    if (valid.empty()) valid.min = level;
    valid.max = level;
  }
  number = valid;
  return !valid.empty();
}

// Arithmetic over the N-1 first columns of a row: the sum (or difference) of counts or 1-based
// levels, `unit` = 1, or of raw levels (Color), `unit` = 0 (spec 4.3 at N = 3).
void narrow_arithmetic(Range& range, int sign, int grid, int unit) {
  if (sign > 0)
    range.max = range.max - (grid - 2) * (range.min + unit);
  else
    range.min = (grid - 1) * (range.min + unit) - unit;
}

// Group 0 (docs/rules.md#narrowing, Number column). Returns false when the rule is invalid for the
// layout.
bool narrow_number_position(const Rule& rule, Range& number, int grid) {
  const bool on_number = rule.attr == RuleAttr::kNumber;
  const bool on_position = rule.attr == RuleAttr::kPosition;
  switch (rule.name) {
    case RuleName::kConstant:
      RAVE_CHECK(rule.attr == RuleAttr::kNumberPosition, "group-0 Constant is on Number/Position");
      return true;
    case RuleName::kProgression:
      RAVE_CHECK(on_number || on_position, "group-0 Progression is on Number or Position");
      if (on_number)
        narrow_progression(number, rule.value, grid);
      else
        number.max -= (grid - 1) * (rule.value < 0 ? -rule.value : rule.value);
      return true;
    case RuleName::kArithmetic:
      RAVE_CHECK(on_number || on_position, "group-0 Arithmetic is on Number or Position");
      if (on_number) narrow_arithmetic(number, rule.value, grid, 1);
      if (on_position && rule.value > 0) number.max -= grid - 2;
      if (on_position && rule.value < 0) {
        number.min = floor_div(number.max + 2, 2) - 1;
        number.max -= 1;
      }
      return true;
    case RuleName::kDistributeThree:
      RAVE_CHECK(on_number || on_position, "group-0 Distribute_Three is on Number or Position");
      if (on_number) return has_levels(number, grid);
      return narrow_distribute_position(number, grid);
  }
  return false;
}

// Groups 1-3 (docs/rules.md#narrowing, Type/Size/Color column).
bool narrow_entity_attr(const Rule& rule, Range& range, int grid) {
  switch (rule.name) {
    case RuleName::kConstant: return true;
    case RuleName::kProgression: narrow_progression(range, rule.value, grid); return true;
    case RuleName::kDistributeThree: return has_levels(range, grid);
    case RuleName::kArithmetic:
      if (rule.attr == RuleAttr::kSize) {
        narrow_arithmetic(range, rule.value, grid, 1);
        return true;
      }
      RAVE_CHECK(rule.attr == RuleAttr::kColor, "Arithmetic on Type is not a RAVEN rule");
      if (range.max - range.min < 1) return false;
      narrow_arithmetic(range, rule.value, grid, 0);
      return true;
  }
  return false;
}

Range& entity_range(LayoutConstraints& c, int group) {
  return group == 1 ? c.type : group == 2 ? c.size : c.color;
}

constexpr RuleAttr kGroupAttr[4] = {RuleAttr::kNumberPosition, RuleAttr::kType, RuleAttr::kSize,
                                    RuleAttr::kColor};

// Whether (name, attr) is a row of group `group` of the rule table (docs/rules.md).
bool is_row(int group, const Rule& rule) {
  if (group == 0)
    return rule.name == RuleName::kConstant
               ? rule.attr == RuleAttr::kNumberPosition
               : rule.attr == RuleAttr::kNumber || rule.attr == RuleAttr::kPosition;
  return rule.attr == kGroupAttr[group] && !(group == 1 && rule.name == RuleName::kArithmetic);
}

std::string signed_text(int value) {
  std::string text = std::to_string(value);
  if (value > 0)
    text.insert(text.begin(), '+');  // not "+" + text: g++ 12 warns falsely (-Wrestrict)
  return text;
}

std::string parameters_text(RuleName name) {
  std::string out;
  for (const int p : rule_parameters(name)) {
    if (!out.empty()) out += ", ";
    out += signed_text(p);
  }
  return out;
}

// Whether the layout's ranges hold `rule` with parameter `value`.
bool fits_layout(int group, Rule rule, int value, const LayoutSpec& layout) {
  rule.value = value;
  rule.value_known = true;
  LayoutConstraints constraints = original_constraints(layout);
  return narrow_rule(group, rule, constraints);
}

}  // namespace

LayoutConstraints original_constraints(const LayoutSpec& layout) {
  return LayoutConstraints{.number = layout.number,
                           .type = layout.type,
                           .size = layout.size,
                           .color = layout.color,
                           .angle = layout.angle,
                           .uniformity = layout.uniformity};
}

bool narrow_rule(int group, const Rule& rule, LayoutConstraints& constraints, int grid) {
  RAVE_CHECK(0 <= group && group < 4, "rule group must be 0..3");
  RAVE_CHECK(grid >= 3, "a matrix has at least 3 columns");
  check_value(rule);
  if (group == 0)
    return narrow_number_position(rule, constraints.number, grid) && !constraints.number.empty();
  RAVE_CHECK(rule.attr == kGroupAttr[group], "rule group holds a rule on the wrong attribute");
  Range& range = entity_range(constraints, group);
  return narrow_entity_attr(rule, range, grid) && !range.empty();
}

std::optional<LayoutConstraints> narrow(const LayoutSpec& /*layout: slot count = Number max + 1*/,
                                        const LayoutConstraints& original, const RuleGroup& rules,
                                        int grid) {
  LayoutConstraints out = original;
  for (int group = 0; group < 4; ++group)
    if (!narrow_rule(group, rules.rules[static_cast<std::size_t>(group)], out, grid))
      return std::nullopt;
  return out;
}

std::span<const int> rule_parameters(RuleName name) {
  switch (name) {
    case RuleName::kProgression: return kSteps;
    case RuleName::kArithmetic: return kSigns;
    case RuleName::kConstant:
    case RuleName::kDistributeThree: return kNoParameter;
  }
  return kNoParameter;
}

std::string rule_defect(int group, const Rule& rule, const LayoutSpec& layout) {
  RAVE_CHECK(0 <= group && group < 4, "rule group must be 0..3");
  const std::string what =
      std::string(rule_name_text(rule.name)) + " " + std::string(rule_attr_text(rule.attr));
  if (!is_row(group, rule)) return what + " is not a rule of RAVEN's rule table";
  const auto parameters = rule_parameters(rule.name);
  if (rule.value_known &&
      std::find(parameters.begin(), parameters.end(), rule.value) == parameters.end())
    return what + " takes parameter " + parameters_text(rule.name) + ", not " +
           signed_text(rule.value);
  for (const int value : parameters)
    if ((!rule.value_known || value == rule.value) && fits_layout(group, rule, value, layout))
      return {};
  std::string text = what;
  if (rule.value_known) text.append(" ").append(signed_text(rule.value));
  return text.append(" cannot hold in layout ")
      .append(layout.name)
      .append(" (its level ranges leave no room for it)");
}

std::optional<std::vector<LayoutConstraints>> prune(const Configuration& config,
                                                    const std::vector<RuleGroup>& rules, int grid) {
  if (rules.size() != config.components.size()) return std::nullopt;
  std::vector<LayoutConstraints> narrowed;
  narrowed.reserve(rules.size());
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const LayoutSpec& layout = config.components[i].layout;
    auto one = narrow(layout, original_constraints(layout), rules[i], grid);
    if (!one) return std::nullopt;
    narrowed.push_back(*one);
  }
  return narrowed;
}

}  // namespace rave::engine
