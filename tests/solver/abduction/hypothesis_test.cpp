// The valid hypotheses and their accepted priors against the table of
// docs/rules.md#sampling-and-pruning.
#include "solver/abduction/hypothesis.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace rave::solver {
namespace {

using engine::ConfigId;
using engine::Rule;
using engine::RuleAttr;
using engine::RuleName;

double prior_of(const std::vector<Hypothesis>& list, RuleName name, RuleAttr attr, int value) {
  for (const auto& h : list)
    if (h.rule.name == name && h.rule.attr == attr && h.rule.value == value)
      return std::exp(h.log_prior);
  return 0.0;
}

const Hypothesis* find(const std::vector<Hypothesis>& list, RuleName name, RuleAttr attr,
                       int value) {
  for (const auto& h : list)
    if (h.rule.name == name && h.rule.attr == attr && h.rule.value == value) return &h;
  return nullptr;
}

TEST(LayoutModel, SingleSlotLayoutsOnlyAllowConstantNumberPosition) {
  for (ConfigId id : {ConfigId::kCenterSingle, ConfigId::kLeftRight, ConfigId::kOutInCenter}) {
    const LayoutModel& m = layout_model(id, 0);
    ASSERT_EQ(m.group0.size(), 1u);
    EXPECT_EQ(m.group0[0].rule.name, RuleName::kConstant);
    EXPECT_NEAR(std::exp(m.group0[0].log_prior), 1.0, 1e-12);
  }
}

TEST(LayoutModel, DistributeFourGroup0PriorsMatchSpec42) {
  const LayoutModel& m = layout_model(ConfigId::kDistributeFour, 0);
  EXPECT_EQ(m.slots, 4);
  EXPECT_EQ(m.group0.size(), 11u);  // +-2 progressions are invalid in 2x2
  EXPECT_NEAR(prior_of(m.group0, RuleName::kProgression, RuleAttr::kNumber, -1), 1.0 / 24, 1e-12);
  EXPECT_NEAR(prior_of(m.group0, RuleName::kProgression, RuleAttr::kPosition, 1), 1.0 / 24, 1e-12);
  EXPECT_NEAR(prior_of(m.group0, RuleName::kArithmetic, RuleAttr::kPosition, -1), 1.0 / 12, 1e-12);
  EXPECT_NEAR(prior_of(m.group0, RuleName::kConstant, RuleAttr::kNumberPosition, 0), 1.0 / 6,
              1e-12);
  EXPECT_EQ(prior_of(m.group0, RuleName::kProgression, RuleAttr::kNumber, 2), 0.0);
  const Hypothesis* minus = find(m.group0, RuleName::kArithmetic, RuleAttr::kPosition, -1);
  ASSERT_NE(minus, nullptr);
  EXPECT_EQ(minus->range, (engine::Range{1, 2}));
}

TEST(LayoutModel, DistributeNineHasAllFifteenGroup0Rules) {
  const LayoutModel& m = layout_model(ConfigId::kDistributeNine, 0);
  EXPECT_EQ(m.group0.size(), 15u);
  EXPECT_NEAR(prior_of(m.group0, RuleName::kProgression, RuleAttr::kNumber, 2), 1.0 / 28, 1e-12);
  EXPECT_NEAR(prior_of(m.group0, RuleName::kDistributeThree, RuleAttr::kPosition, 0), 1.0 / 7,
              1e-12);
  EXPECT_EQ(find(m.group0, RuleName::kProgression, RuleAttr::kNumber, -2)->range,
            (engine::Range{4, 8}));
}

TEST(LayoutModel, OutComponentNarrowsSizeAndColor) {
  const LayoutModel& out = layout_model(ConfigId::kOutInGrid, 0);
  EXPECT_NEAR(prior_of(out.entity[kSize], RuleName::kProgression, RuleAttr::kSize, -1), 0.1, 1e-12);
  EXPECT_NEAR(prior_of(out.entity[kSize], RuleName::kDistributeThree, RuleAttr::kSize, 0), 0.4,
              1e-12);
  ASSERT_EQ(out.entity[kColor].size(), 1u);
  EXPECT_EQ(out.entity[kColor][0].rule.name, RuleName::kConstant);
  const LayoutModel& in = layout_model(ConfigId::kOutInGrid, 1);
  EXPECT_NEAR(prior_of(in.entity[kSize], RuleName::kArithmetic, RuleAttr::kSize, 1), 1.0 / 7,
              1e-12);
  EXPECT_EQ(find(in.entity[kSize], RuleName::kArithmetic, RuleAttr::kSize, 1)->range,
            (engine::Range{2, 2}));
  EXPECT_EQ(find(in.entity[kSize], RuleName::kArithmetic, RuleAttr::kSize, -1)->range,
            (engine::Range{5, 5}));
}

TEST(LayoutModel, TypeHasNoArithmeticAndPriorsSumToOne) {
  for (const auto& config : engine::all_configurations())
    for (std::size_t c = 0; c < config.components.size(); ++c) {
      const LayoutModel& m = layout_model(config.id, static_cast<int>(c));
      for (const auto& h : m.entity[kType]) EXPECT_NE(h.rule.name, RuleName::kArithmetic);
      auto sum = [](const std::vector<Hypothesis>& list) {
        double s = 0;
        for (const auto& h : list) s += std::exp(h.log_prior);
        return s;
      };
      EXPECT_NEAR(sum(m.group0), 1.0, 1e-12);
      for (const auto& list : m.entity) EXPECT_NEAR(sum(list), 1.0, 1e-12);
    }
}

TEST(LayoutModel, AllowedByKeepsOnlyTheNamedRules) {
  const LayoutModel& m = layout_model(ConfigId::kDistributeNine, 0);
  engine::RuleGroup rules;
  rules.rules[0] = Rule{RuleName::kProgression, RuleAttr::kNumber, 0, false};
  rules.rules[1] = Rule{RuleName::kConstant, RuleAttr::kType, 0, false};
  rules.rules[2] = Rule{RuleName::kArithmetic, RuleAttr::kSize, 0, false};
  rules.rules[3] = Rule{RuleName::kDistributeThree, RuleAttr::kColor, 0, false};
  const AllowedHypotheses allowed = allowed_by(m, rules);
  int group0 = 0;
  for (std::size_t i = 0; i < m.group0.size(); ++i)
    if ((allowed.group0 >> i) & 1u) {
      ++group0;
      EXPECT_EQ(m.group0[i].rule.name, RuleName::kProgression);
      EXPECT_EQ(m.group0[i].rule.attr, RuleAttr::kNumber);
    }
  EXPECT_EQ(group0, 4);  // steps -2, -1, +1, +2 are all abduced
  int size_rules = 0;
  for (std::size_t i = 0; i < m.entity[kSize].size(); ++i)
    size_rules += (allowed.entity[kSize] >> i) & 1u;
  EXPECT_EQ(size_rules, 2);
}

TEST(RuleText, ParametersAreSpelledAsInTheExplanations) {
  EXPECT_EQ(rule_text(Rule{RuleName::kProgression, RuleAttr::kSize, -1, true}),
            "Size Progression -1");
  EXPECT_EQ(rule_text(Rule{RuleName::kArithmetic, RuleAttr::kColor, 1, true}),
            "Color Arithmetic +");
  EXPECT_EQ(rule_text(Rule{RuleName::kConstant, RuleAttr::kNumberPosition, 0, true}),
            "Number/Position Constant");
  EXPECT_EQ(rule_text(Rule{RuleName::kDistributeThree, RuleAttr::kType, 0, true}),
            "Type Distribute_Three");
}

}  // namespace
}  // namespace rave::solver
