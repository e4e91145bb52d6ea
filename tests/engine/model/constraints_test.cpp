// narrow() and prune() against the tables of docs/rules.md#sampling-and-pruning,
// docs/rules.md#narrowing, and the exact acceptance rate per try obtained by enumerating the rule
// table (docs/rules.md#rule-table) through narrow().
#include "engine/model/constraints.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "engine/rules/rule_table.hpp"

namespace rave::engine {
namespace {

Rule rule(RuleName name, RuleAttr attr, int value = 0) {
  return Rule{.name = name, .attr = attr, .value = value, .value_known = true};
}

RuleGroup group_with(int g, const Rule& r) {
  RuleGroup group{{rule(RuleName::kConstant, RuleAttr::kNumberPosition),
                   rule(RuleName::kConstant, RuleAttr::kType),
                   rule(RuleName::kConstant, RuleAttr::kSize),
                   rule(RuleName::kConstant, RuleAttr::kColor)}};
  group.rules[static_cast<std::size_t>(g)] = r;
  return group;
}

const LayoutSpec& layout_of(ConfigId id, int component = 0) {
  return configuration(id).components[static_cast<std::size_t>(component)].layout;
}

std::optional<LayoutConstraints> narrow_one(ConfigId id, int component, int g, const Rule& r) {
  const LayoutSpec& layout = layout_of(id, component);
  return narrow(layout, original_constraints(layout), group_with(g, r));
}

std::optional<Range> number_after(ConfigId id, const Rule& r) {
  auto c = narrow_one(id, 0, 0, r);
  if (!c) return std::nullopt;
  return c->number;
}

using N = RuleName;
using A = RuleAttr;

TEST(Narrow, DistributeNineNumberRangesOfSpecTable42) {
  const auto d9 = ConfigId::kDistributeNine;
  EXPECT_EQ(number_after(d9, rule(N::kProgression, A::kNumber, -2)), (Range{4, 8}));
  EXPECT_EQ(number_after(d9, rule(N::kProgression, A::kNumber, -1)), (Range{2, 8}));
  EXPECT_EQ(number_after(d9, rule(N::kProgression, A::kNumber, 1)), (Range{0, 6}));
  EXPECT_EQ(number_after(d9, rule(N::kProgression, A::kNumber, 2)), (Range{0, 4}));
  for (int v : {-1, 1})
    EXPECT_EQ(number_after(d9, rule(N::kProgression, A::kPosition, v)), (Range{0, 6}));
  for (int v : {-2, 2})
    EXPECT_EQ(number_after(d9, rule(N::kProgression, A::kPosition, v)), (Range{0, 4}));
  EXPECT_EQ(number_after(d9, rule(N::kArithmetic, A::kNumber, 1)), (Range{0, 7}));
  EXPECT_EQ(number_after(d9, rule(N::kArithmetic, A::kNumber, -1)), (Range{1, 8}));
  EXPECT_EQ(number_after(d9, rule(N::kArithmetic, A::kPosition, 1)), (Range{0, 7}));
  EXPECT_EQ(number_after(d9, rule(N::kArithmetic, A::kPosition, -1)), (Range{4, 7}));
  EXPECT_EQ(number_after(d9, rule(N::kDistributeThree, A::kNumber)), (Range{0, 8}));
  EXPECT_EQ(number_after(d9, rule(N::kDistributeThree, A::kPosition)), (Range{0, 7}));
  EXPECT_EQ(number_after(d9, rule(N::kConstant, A::kNumberPosition)), (Range{0, 8}));
}

TEST(Narrow, DistributeFourNumberRangesOfSpecTable42) {
  for (ConfigId id : {ConfigId::kDistributeFour, ConfigId::kOutInGrid}) {
    const int c = id == ConfigId::kOutInGrid ? 1 : 0;
    auto num = [&](const Rule& r) -> std::optional<Range> {
      auto n = narrow_one(id, c, 0, r);
      return n ? std::optional<Range>(n->number) : std::nullopt;
    };
    EXPECT_EQ(num(rule(N::kProgression, A::kNumber, -1)), (Range{2, 3}));
    EXPECT_EQ(num(rule(N::kProgression, A::kNumber, 1)), (Range{0, 1}));
    EXPECT_EQ(num(rule(N::kProgression, A::kNumber, -2)), std::nullopt);
    EXPECT_EQ(num(rule(N::kProgression, A::kNumber, 2)), std::nullopt);
    for (int v : {-1, 1}) EXPECT_EQ(num(rule(N::kProgression, A::kPosition, v)), (Range{0, 1}));
    for (int v : {-2, 2}) EXPECT_EQ(num(rule(N::kProgression, A::kPosition, v)), std::nullopt);
    EXPECT_EQ(num(rule(N::kArithmetic, A::kNumber, 1)), (Range{0, 2}));
    EXPECT_EQ(num(rule(N::kArithmetic, A::kNumber, -1)), (Range{1, 3}));
    EXPECT_EQ(num(rule(N::kArithmetic, A::kPosition, 1)), (Range{0, 2}));
    // floor((3 + 2) / 2) - 1 = 1: integer division, not 1.5.
    EXPECT_EQ(num(rule(N::kArithmetic, A::kPosition, -1)), (Range{1, 2}));
    EXPECT_EQ(num(rule(N::kDistributeThree, A::kNumber)), (Range{0, 3}));
    EXPECT_EQ(num(rule(N::kDistributeThree, A::kPosition)), (Range{0, 2}));
    EXPECT_EQ(num(rule(N::kConstant, A::kNumberPosition)), (Range{0, 3}));
  }
}

TEST(Narrow, SingleSlotLayoutsAcceptOnlyConstantNumberPosition) {
  for (ConfigId id :
       {ConfigId::kCenterSingle, ConfigId::kLeftRight, ConfigId::kUpDown, ConfigId::kOutInCenter}) {
    for (std::size_t c = 0; c < configuration(id).components.size(); ++c) {
      for (const RuleRow& row : rule_rows(0)) {
        const std::vector<int> values =
            row.params.empty() ? std::vector<int>{0}
                               : std::vector<int>(row.params.begin(), row.params.end());
        for (int v : values) {
          const bool valid =
              narrow_one(id, static_cast<int>(c), 0, rule(row.name, row.attr, v)).has_value();
          EXPECT_EQ(valid, row.name == N::kConstant)
              << configuration(id).folder << " " << rule_name_text(row.name) << " "
              << rule_attr_text(row.attr) << " " << v;
        }
      }
    }
  }
}

TEST(Narrow, EntityRangesOfSpecTable43) {
  const auto center = ConfigId::kCenterSingle;
  auto size = [&](const Rule& r) {
    auto n = narrow_one(center, 0, 2, r);
    return n ? std::optional<Range>(n->size) : std::nullopt;
  };
  auto color = [&](const Rule& r) {
    auto n = narrow_one(center, 0, 3, r);
    return n ? std::optional<Range>(n->color) : std::nullopt;
  };
  auto type = [&](const Rule& r) {
    auto n = narrow_one(center, 0, 1, r);
    return n ? std::optional<Range>(n->type) : std::nullopt;
  };
  EXPECT_EQ(type(rule(N::kProgression, A::kType, 2)), (Range{1, 1}));
  EXPECT_EQ(type(rule(N::kProgression, A::kType, -2)), (Range{5, 5}));
  EXPECT_EQ(type(rule(N::kDistributeThree, A::kType)), (Range{1, 5}));
  EXPECT_EQ(size(rule(N::kArithmetic, A::kSize, 1)), (Range{0, 4}));   // max - min - 1
  EXPECT_EQ(size(rule(N::kArithmetic, A::kSize, -1)), (Range{1, 5}));  // 2 min + 1
  EXPECT_EQ(size(rule(N::kProgression, A::kSize, 1)), (Range{0, 3}));
  EXPECT_EQ(size(rule(N::kProgression, A::kSize, -1)), (Range{2, 5}));
  EXPECT_EQ(color(rule(N::kArithmetic, A::kColor, 1)), (Range{0, 9}));   // max - min
  EXPECT_EQ(color(rule(N::kArithmetic, A::kColor, -1)), (Range{0, 9}));  // 2 min
  EXPECT_EQ(color(rule(N::kProgression, A::kColor, 2)), (Range{0, 5}));
  EXPECT_EQ(color(rule(N::kProgression, A::kColor, -2)), (Range{4, 9}));
}

TEST(Narrow, OutAndInGridEntityRanges) {
  const auto oic = ConfigId::kOutInCenter;
  auto out_size = [&](const Rule& r) {
    auto n = narrow_one(oic, 0, 2, r);
    return n ? std::optional<Range>(n->size) : std::nullopt;
  };
  auto out_color_ok = [&](const Rule& r) { return narrow_one(oic, 0, 3, r).has_value(); };
  EXPECT_EQ(out_size(rule(N::kProgression, A::kSize, 1)), (Range{3, 3}));
  EXPECT_EQ(out_size(rule(N::kProgression, A::kSize, -1)), (Range{5, 5}));
  EXPECT_EQ(out_size(rule(N::kProgression, A::kSize, 2)), std::nullopt);
  EXPECT_EQ(out_size(rule(N::kProgression, A::kSize, -2)), std::nullopt);
  EXPECT_EQ(out_size(rule(N::kArithmetic, A::kSize, 1)), std::nullopt);
  EXPECT_EQ(out_size(rule(N::kArithmetic, A::kSize, -1)), std::nullopt);
  EXPECT_EQ(out_size(rule(N::kDistributeThree, A::kSize)), (Range{3, 5}));
  EXPECT_FALSE(out_color_ok(rule(N::kArithmetic, A::kColor, 1)));  // max - min < 1
  EXPECT_FALSE(out_color_ok(rule(N::kProgression, A::kColor, 1)));
  EXPECT_FALSE(out_color_ok(rule(N::kDistributeThree, A::kColor)));
  EXPECT_TRUE(out_color_ok(rule(N::kConstant, A::kColor)));
  const auto oig = ConfigId::kOutInGrid;
  auto in_size = [&](const Rule& r) {
    auto n = narrow_one(oig, 1, 2, r);
    return n ? std::optional<Range>(n->size) : std::nullopt;
  };
  EXPECT_EQ(in_size(rule(N::kArithmetic, A::kSize, 1)), (Range{2, 2}));
  EXPECT_EQ(in_size(rule(N::kArithmetic, A::kSize, -1)), (Range{5, 5}));
  EXPECT_EQ(in_size(rule(N::kProgression, A::kSize, 2)), std::nullopt);
  EXPECT_EQ(in_size(rule(N::kProgression, A::kSize, 1)), (Range{2, 3}));
}

TEST(Narrow, AngleAndUniformityAreNeverNarrowed) {
  auto c = narrow_one(ConfigId::kDistributeNine, 0, 0, rule(N::kProgression, A::kNumber, 2));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->angle, (Range{0, 7}));
  EXPECT_EQ(c->uniformity, (Range{0, 3}));
}

TEST(Narrow, RejectsRulesWithoutParametersOrOnTheWrongAttribute) {
  Rule unknown = rule(N::kProgression, A::kSize, 1);
  unknown.value_known = false;
  EXPECT_THROW(narrow_one(ConfigId::kCenterSingle, 0, 2, unknown), std::logic_error);
  EXPECT_THROW(narrow_one(ConfigId::kCenterSingle, 0, 2, rule(N::kProgression, A::kSize, 3)),
               std::logic_error);
  EXPECT_THROW(narrow_one(ConfigId::kCenterSingle, 0, 1, rule(N::kArithmetic, A::kType, 1)),
               std::logic_error);
  EXPECT_THROW(narrow_one(ConfigId::kCenterSingle, 0, 2, rule(N::kConstant, A::kColor)),
               std::logic_error);
}

TEST(Prune, NeedsOneGroupPerComponent) {
  const RuleGroup constant = group_with(0, rule(N::kConstant, A::kNumberPosition));
  EXPECT_FALSE(prune(configuration(ConfigId::kLeftRight), {constant}).has_value());
  EXPECT_FALSE(prune(configuration(ConfigId::kCenterSingle), {constant, constant}).has_value());
  auto both = prune(configuration(ConfigId::kLeftRight), {constant, constant});
  ASSERT_TRUE(both);
  EXPECT_EQ(both->size(), 2u);
  const RuleGroup arith_color = group_with(3, rule(N::kArithmetic, A::kColor, 1));
  EXPECT_FALSE(prune(configuration(ConfigId::kOutInCenter), {arith_color, constant}).has_value());
  EXPECT_TRUE(prune(configuration(ConfigId::kOutInCenter), {constant, arith_color}).has_value());
}

// P(valid) of one group on one layout: sum of 4.1 priors of the (row, parameter) pairs narrow()
// accepts (the check factorizes per attribute).
double valid_mass(const LayoutSpec& layout, int g) {
  double mass = 0;
  for (const RuleRow& row : rule_rows(g)) {
    const std::vector<int> values = row.params.empty()
                                        ? std::vector<int>{0}
                                        : std::vector<int>(row.params.begin(), row.params.end());
    for (int v : values) {
      const Rule r = rule(row.name, row.attr, v);
      if (narrow(layout, original_constraints(layout), group_with(g, r))) mass += rule_prior(g, r);
    }
  }
  return mass;
}

TEST(Prune, ExactAcceptancePerTryMatchesSpec42) {
  const std::array<double, kNumConfigs> expected{1.0 / 14, 3.0 / 7,    1.0 / 2,    1.0 / 98,
                                                 1.0 / 98, 5.0 / 3136, 15.0 / 1792};
  for (const Configuration& config : all_configurations()) {
    double accept = 0.5;  // component count drawn uniformly from {1, 2}
    for (const ComponentSpec& c : config.components)
      for (int g = 0; g < kNumRuleGroups; ++g) accept *= valid_mass(c.layout, g);
    EXPECT_NEAR(accept, expected[static_cast<std::size_t>(config_index(config.id))], 1e-12)
        << config.folder;
  }
}

// narrow() is narrow_rule() over the four groups in order, failing at the first invalid rule.
TEST(Narrow, IsNarrowRuleAppliedGroupByGroup) {
  for (const Configuration& config : all_configurations())
    for (const ComponentSpec& c : config.components)
      for (int g = 0; g < kNumRuleGroups; ++g)
        for (const RuleRow& row : rule_rows(g)) {
          std::vector<int> values(row.params.begin(), row.params.end());
          if (values.empty()) values.push_back(0);
          for (int v : values) {
            const Rule r = rule(row.name, row.attr, v);
            LayoutConstraints step = original_constraints(c.layout);
            const bool ok = narrow_rule(g, r, step);
            const auto whole = narrow(c.layout, original_constraints(c.layout), group_with(g, r));
            EXPECT_EQ(ok, whole.has_value())
                << config.folder << " " << rule_name_text(r.name) << " " << v;
            if (ok && whole) {
              EXPECT_EQ(step, *whole);
            }
          }
        }
  LayoutConstraints any = original_constraints(layout_of(ConfigId::kCenterSingle));
  EXPECT_THROW(narrow_rule(4, rule(N::kConstant, A::kColor), any), std::logic_error);
}

TEST(RuleTable, PriorsFollowRowsThenParameters) {
  EXPECT_DOUBLE_EQ(rule_prior(0, rule(N::kProgression, A::kNumber, -1)), 1.0 / 28);
  EXPECT_DOUBLE_EQ(rule_prior(0, rule(N::kArithmetic, A::kPosition, 1)), 1.0 / 14);
  EXPECT_DOUBLE_EQ(rule_prior(0, rule(N::kConstant, A::kNumberPosition)), 1.0 / 7);
  EXPECT_DOUBLE_EQ(rule_prior(1, rule(N::kProgression, A::kType, 2)), 1.0 / 12);
  EXPECT_DOUBLE_EQ(rule_prior(2, rule(N::kArithmetic, A::kSize, -1)), 1.0 / 8);
  EXPECT_DOUBLE_EQ(rule_prior(1, rule(N::kArithmetic, A::kType, 1)), 0.0);
  EXPECT_DOUBLE_EQ(rule_prior(3, rule(N::kProgression, A::kColor, 3)), 0.0);
  EXPECT_EQ(rule_group_of(A::kNumberPosition), 0);
  EXPECT_EQ(rule_group_of(A::kColor), 3);
}

}  // namespace
}  // namespace rave::engine

// rule_defect accepts exactly the table's rules (with their parameters) that the layout holds, and
// a rule of unknown value when one of its parameters does; everything else is named.
namespace rave::engine {
namespace {

TEST(RuleDefect, AcceptsExactlyTheTableRulesTheLayoutHolds) {
  const std::array<RuleAttr, 6> attrs{RuleAttr::kNumberPosition, RuleAttr::kNumber,
                                      RuleAttr::kPosition,       RuleAttr::kType,
                                      RuleAttr::kSize,           RuleAttr::kColor};
  const std::array<RuleName, 4> names{RuleName::kConstant, RuleName::kProgression,
                                      RuleName::kArithmetic, RuleName::kDistributeThree};
  int accepted = 0;
  for (const Configuration& config : all_configurations())
    for (const ComponentSpec& component : config.components)
      for (int g = 0; g < 4; ++g)
        for (RuleName name : names)
          for (RuleAttr attr : attrs) {
            bool any = false;
            for (int value = -3; value <= 3; ++value) {
              const Rule r = rule(name, attr, value);
              bool in_table = false;
              for (const RuleRow& row : rule_rows(g))
                in_table |= row.name == name && row.attr == attr &&
                            (row.params.empty() ? value == 0
                                                : std::find(row.params.begin(), row.params.end(),
                                                            value) != row.params.end());
              LayoutConstraints c = original_constraints(component.layout);
              const bool holds = in_table && narrow_rule(g, r, c);
              EXPECT_EQ(rule_defect(g, r, component.layout).empty(), holds)
                  << config.folder << " " << g << " " << rule_name_text(name) << " "
                  << rule_attr_text(attr) << " " << value;
              any |= holds;
              accepted += holds;
            }
            EXPECT_EQ(rule_defect(g, Rule{name, attr, 0, false}, component.layout).empty(), any);
          }
  EXPECT_GT(accepted, 100);
}

TEST(RuleDefect, NamesWhatIsWrong) {
  const LayoutSpec& out = layout_of(ConfigId::kOutInCenter, 0);
  EXPECT_EQ(rule_defect(3, rule(RuleName::kProgression, RuleAttr::kColor, 1), out),
            "Progression Color +1 cannot hold in layout Out_Center_Single (its level ranges leave "
            "no room for it)");
  EXPECT_EQ(rule_defect(1, rule(RuleName::kArithmetic, RuleAttr::kType, 1), out),
            "Arithmetic Type is not a rule of RAVEN's rule table");
  EXPECT_EQ(rule_defect(2, rule(RuleName::kProgression, RuleAttr::kSize, 3), out),
            "Progression Size takes parameter -2, -1, +1, +2, not +3");
  EXPECT_EQ(rule_defect(3, rule(RuleName::kConstant, RuleAttr::kColor), out), "");
}

}  // namespace
}  // namespace rave::engine
