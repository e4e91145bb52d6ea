#include "engine/model/variant.hpp"

#include <gtest/gtest.h>

#include <set>

#include "common/error.hpp"
#include "engine/model/constraints.hpp"
#include "engine/model/variant_space.hpp"

namespace rave::engine {
namespace {

TEST(Variant, DefaultIsTheOriginal) {
  const Variant v;
  EXPECT_TRUE(v.is_original());
  EXPECT_EQ(v.context_panels(), kContextPanels);
  EXPECT_EQ(panel_count(v.grid), kPanels);
  EXPECT_EQ(Variant{.grid = 10}.context_panels(), 99);
  EXPECT_FALSE(Variant{.grid = 4}.is_original());
}

TEST(Variant, OutOfRangeOptionsNameTheOption) {
  const auto message = [](const Variant& v) {
    try {
      check_variant(v);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(message(Variant{.grid = 2}).find("grid 2"), std::string::npos);
  EXPECT_NE(message(Variant{.grid = 11}).find("grid 11"), std::string::npos);
  EXPECT_NE(message(Variant{.values = 2}).find("values 2"), std::string::npos);
  EXPECT_NE(message(Variant{.values = 1001}).find("values 1001"), std::string::npos);
  EXPECT_NE(message(Variant{.confounders = 65}).find("confounders 65"), std::string::npos);
  EXPECT_NE(message(Variant{.regime = Regime::kHeldOutPairs}).find("hold-out list"),
            std::string::npos);
  EXPECT_EQ(message(Variant{.grid = 10, .values = 1000, .confounders = 64}), "");
}

TEST(Variant, HoldOutParsesRowsOfTheRuleTable) {
  Variant v{.regime = Regime::kHeldOutPairs};
  parse_hold_out("Color:Progression,Number:Distribute_N,Color:Progression", v.regime, v);
  ASSERT_EQ(v.held_out_pairs.size(), 2u);
  EXPECT_EQ(v.held_out_pairs[1], (RulePair{RuleAttr::kNumber, RuleName::kDistributeThree}));
  EXPECT_EQ(hold_out_text(v), "Color:Progression,Number:Distribute_Three");
  EXPECT_THROW(parse_hold_out("Colour:Progression", v.regime, v), UsageError);
  EXPECT_THROW(parse_hold_out("Color:Rotation", v.regime, v), UsageError);
  EXPECT_THROW(parse_hold_out("Type:Arithmetic", v.regime, v), UsageError);  // not a RAVEN rule
  EXPECT_THROW(parse_hold_out("Color", v.regime, v), UsageError);
  Variant a{.regime = Regime::kHeldOutAttribute};
  parse_hold_out("Size", a.regime, a);
  EXPECT_EQ(a.held_out_attr, RuleAttr::kSize);
  EXPECT_THROW(parse_hold_out("Number", a.regime, a), UsageError);
  Variant n;
  EXPECT_THROW(parse_hold_out("Size", n.regime, n), UsageError);
  EXPECT_FALSE(parse_regime("sideways").has_value());
  EXPECT_EQ(parse_regime("held-out-attribute"), Regime::kHeldOutAttribute);
}

TEST(Variant, WidenedRangesKeepTheLayoutsShape) {
  EXPECT_EQ(widened_range(Range{1, 5}, Attr::kType, 100), (Range{1, 100}));
  EXPECT_EQ(widened_range(kDefaultSizeRange, Attr::kSize, 100), (Range{0, 99}));
  EXPECT_EQ(widened_range(kDefaultColorRange, Attr::kColor, 1000), (Range{0, 999}));
  EXPECT_EQ(widened_range(Range{3, 5}, Attr::kSize, 100), (Range{50, 99}));  // Out's Size
}

TEST(Variant, ValueRegimesSplitTheLevelsDisjointly) {
  for (Regime regime : {Regime::kInterpolation, Regime::kExtrapolation}) {
    const Variant v{.values = 20, .regime = regime};
    for (int c = 0; c < kNumConfigs; ++c) {
      const auto id = static_cast<ConfigId>(c);
      const VariantSpace& train = variant_space(id, v, Split::kTrain);
      const VariantSpace& test = variant_space(id, v, Split::kTest);
      for (std::size_t k = 0; k < train.maps.size(); ++k) {
        const LayoutSpec& a = train.config.components[k].layout;
        const LayoutSpec& b = test.config.components[k].layout;
        const std::array<std::pair<Range, Range>, 3> ranges{
            {{a.type, b.type}, {a.size, b.size}, {a.color, b.color}}};
        for (std::size_t attr = 0; attr < 3; ++attr) {
          if (train.maps[k][attr].identity() && ranges[attr].first == ranges[attr].second)
            continue;  // one level
          std::set<int> seen;
          for (int i = ranges[attr].first.min; i <= ranges[attr].first.max; ++i)
            seen.insert(train.maps[k][attr].level(i));
          for (int i = ranges[attr].second.min; i <= ranges[attr].second.max; ++i)
            EXPECT_FALSE(seen.count(test.maps[k][attr].level(i)))
                << regime_name(regime) << " config " << c;
          if (regime == Regime::kInterpolation) {
            for (int level : seen) EXPECT_EQ(level % 2, 1) << "interpolation trains on odd levels";
          }
        }
      }
    }
  }
}

TEST(Constraints, GridNarrowsProgressionArithmeticAndDistribute) {
  const LayoutConstraints c{.number = {0, 0},
                            .type = {1, 5},
                            .size = {0, 5},
                            .color = {0, 9},
                            .angle = {0, 7},
                            .uniformity = kUniformityRange};
  LayoutConstraints p5 = c;
  ASSERT_TRUE(narrow_rule(
      3, Rule{.name = RuleName::kProgression, .attr = RuleAttr::kColor, .value = 2}, p5, 5));
  EXPECT_EQ(p5.color, (Range{0, 1}));  // L + 4 * 2 <= 9
  LayoutConstraints d6 = c;
  EXPECT_FALSE(
      narrow_rule(1, Rule{.name = RuleName::kDistributeThree, .attr = RuleAttr::kType}, d6, 6));
  LayoutConstraints d5 = c;
  EXPECT_TRUE(
      narrow_rule(1, Rule{.name = RuleName::kDistributeThree, .attr = RuleAttr::kType}, d5, 5));
  LayoutConstraints a4 = c;  // Size + over 3 operands (1-based): max = 5 - 2 * (0 + 1)
  ASSERT_TRUE(narrow_rule(
      2, Rule{.name = RuleName::kArithmetic, .attr = RuleAttr::kSize, .value = 1}, a4, 4));
  EXPECT_EQ(a4.size, (Range{0, 3}));
  LayoutConstraints a3 = c;  // grid 3 is the spec's table: max - min - 1
  ASSERT_TRUE(narrow_rule(
      2, Rule{.name = RuleName::kArithmetic, .attr = RuleAttr::kSize, .value = 1}, a3, 3));
  EXPECT_EQ(a3.size, (Range{0, 4}));
}

}  // namespace
}  // namespace rave::engine
