#include "engine/rules/rule_table.hpp"

#include <array>

#include "common/error.hpp"
#include "engine/model/constraints.hpp"

namespace rave::engine {
namespace {

// The parameter lists live with the constraints (engine/model/constraints.hpp), which check them.
const std::span<const int> kSteps = rule_parameters(RuleName::kProgression);
const std::span<const int> kSigns = rule_parameters(RuleName::kArithmetic);
constexpr std::span<const int> kNone{};

using N = RuleName;
using A = RuleAttr;

// docs/rules.md#rule-table, rows in the order of the original's RULE_ATTR table.
const std::array<RuleRow, 7> kGroup0{{
    {N::kProgression, A::kNumber, kSteps},
    {N::kProgression, A::kPosition, kSteps},
    {N::kArithmetic, A::kNumber, kSigns},
    {N::kArithmetic, A::kPosition, kSigns},
    {N::kDistributeThree, A::kNumber, kNone},
    {N::kDistributeThree, A::kPosition, kNone},
    {N::kConstant, A::kNumberPosition, kNone},
}};
const std::array<RuleRow, 3> kGroupType{{
    {N::kProgression, A::kType, kSteps},
    {N::kDistributeThree, A::kType, kNone},
    {N::kConstant, A::kType, kNone},
}};
const std::array<RuleRow, 4> kGroupSize{{
    {N::kProgression, A::kSize, kSteps},
    {N::kArithmetic, A::kSize, kSigns},
    {N::kDistributeThree, A::kSize, kNone},
    {N::kConstant, A::kSize, kNone},
}};
const std::array<RuleRow, 4> kGroupColor{{
    {N::kProgression, A::kColor, kSteps},
    {N::kArithmetic, A::kColor, kSigns},
    {N::kDistributeThree, A::kColor, kNone},
    {N::kConstant, A::kColor, kNone},
}};

}  // namespace

std::span<const RuleRow> rule_rows(int group) {
  switch (group) {
    case 0: return kGroup0;
    case 1: return kGroupType;
    case 2: return kGroupSize;
    case 3: return kGroupColor;
    default: RAVE_CHECK(false, "rule group must be 0..3");
  }
  return {};
}

double rule_prior(int group, const Rule& rule) {
  const auto rows = rule_rows(group);
  for (const RuleRow& row : rows) {
    if (row.name != rule.name || row.attr != rule.attr) continue;
    const double p_row = 1.0 / static_cast<double>(rows.size());
    if (row.params.empty()) return rule.value == 0 ? p_row : 0.0;
    for (int value : row.params)
      if (value == rule.value) return p_row / static_cast<double>(row.params.size());
    return 0.0;
  }
  return 0.0;
}

int rule_group_of(RuleAttr attr) {
  switch (attr) {
    case RuleAttr::kNumberPosition:
    case RuleAttr::kNumber:
    case RuleAttr::kPosition: return 0;
    case RuleAttr::kType: return 1;
    case RuleAttr::kSize: return 2;
    case RuleAttr::kColor: return 3;
  }
  RAVE_CHECK(false, "unknown rule attribute");
  return 0;
}

}  // namespace rave::engine
