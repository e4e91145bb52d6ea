// Render styles as values (engine/model/style.hpp), their level looks (look.hpp) and the limits at
// which two levels stop being told apart (style_limits.hpp).
#include <gtest/gtest.h>

#include <set>

#include "common/error.hpp"
#include "engine/model/look.hpp"
#include "engine/model/style.hpp"
#include "engine/model/style_limits.hpp"

namespace rave::engine {
namespace {

std::string usage_message(const std::string& text) {
  try {
    parse_style(text);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(Style, EveryPresetsTextReadsBackAsItself) {
  for (std::string_view name : style_names()) {
    const RenderStyle s = parse_style(name);
    EXPECT_EQ(s.name, name);
    EXPECT_EQ(parse_style(style_text(s)), s) << style_text(s);
  }
  EXPECT_EQ(style_text(parse_style("original")), "original");
  EXPECT_TRUE(parse_style("original") == RenderStyle{});
}

TEST(Style, ParametersOverrideThePreset) {
  const RenderStyle s = parse_style("clean:size=448,stroke=3.25,background=240,aa=0");
  EXPECT_EQ(s.size, 448);
  EXPECT_DOUBLE_EQ(s.stroke, 3.25);
  EXPECT_EQ(s.background, 240);
  EXPECT_FALSE(s.antialias);
  EXPECT_EQ(parse_style(style_text(s)), s);
  EXPECT_DOUBLE_EQ(s.stroke_px(), 3.25 * 448 / 160);
}

TEST(Style, BadTextIsOneLineNamingTheWord) {
  EXPECT_NE(usage_message("glossy").find("'glossy': unknown style"), std::string::npos);
  EXPECT_NE(usage_message("clean:size=2000").find("size=2000"), std::string::npos);
  EXPECT_NE(usage_message("clean:size=100.5").find("whole number"), std::string::npos);
  EXPECT_NE(usage_message("clean:hue=3").find("'hue': unknown parameter"), std::string::npos);
  EXPECT_NE(usage_message("clean:size").find("expected key=value"), std::string::npos);
  EXPECT_NE(usage_message("clean:size=64,size=96").find("given twice"), std::string::npos);
  EXPECT_NE(usage_message("original:size=320").find("takes no parameters"), std::string::npos);
}

TEST(Style, FreshDrawsItsLookFromTheSeed) {
  std::set<std::string> looks;
  for (int seed = 0; seed < 8; ++seed) {
    const RenderStyle s = parse_style("fresh:seed=" + std::to_string(seed));
    EXPECT_EQ(parse_style(style_text(s)), s);
    EXPECT_EQ(parse_style("fresh:seed=" + std::to_string(seed)), s);
    looks.insert(style_text(s));
  }
  EXPECT_EQ(looks.size(), 8u);
  EXPECT_EQ(parse_style("fresh:seed=3,background=200").background, 200);
}

TEST(Looks, OriginalTablesAndWideLevels) {
  const LevelLooks original(parse_style("clean"), Variant{});
  EXPECT_EQ(original.sides(1), 3);
  EXPECT_EQ(original.sides(2), 4);
  EXPECT_EQ(original.sides(4), 6);
  EXPECT_EQ(original.sides(5), 0);
  EXPECT_DOUBLE_EQ(original.scale(3), 0.7);
  EXPECT_EQ(original.fill(0), -1);
  const LevelLooks wide(parse_style("clean"), Variant{.values = 20});
  EXPECT_EQ(wide.sides(19), 21);
  EXPECT_EQ(wide.sides(20), 0);
  EXPECT_DOUBLE_EQ(wide.scale(0), 0.4);
  EXPECT_NEAR(wide.scale(19), 0.9, 1e-12);
  // Log spacing: equal ratios between neighbours.
  EXPECT_NEAR(wide.scale(6) / wide.scale(5), wide.scale(16) / wide.scale(15), 1e-12);
  // L* spacing: equal lightness steps, darker with the level.
  for (int c = 1; c + 1 < 20; ++c) EXPECT_GT(wide.fill(c), wide.fill(c + 1));
  const double step = gray_lstar(wide.fill(1)) - gray_lstar(wide.fill(2));
  EXPECT_NEAR(gray_lstar(wide.fill(17)) - gray_lstar(wide.fill(18)), step, 1.0);
}

TEST(Looks, ConfoundersTakeOneVisualAttributeEach) {
  const LevelLooks looks(parse_style("bold"), Variant{.confounders = 4});
  const Entity e{.slot = 0, .type = 2, .size = 3, .color = 4, .angle = 3};
  const EntityLook plain = looks.look(e, {}, false);
  const std::vector<int> levels{9, 5, 3, 7};
  const EntityLook marked = looks.look(e, levels, false);
  EXPECT_DOUBLE_EQ(marked.stroke, 1.4 * parse_style("bold").stroke_px());
  EXPECT_NE(marked.line, plain.line);
  EXPECT_GT(marked.dot, 0);
  EXPECT_GT(marked.ring, 0);
  const EntityLook outer = looks.look(e, levels, true);  // an Out shape shows only the first two
  EXPECT_EQ(outer.dot, 0);
  EXPECT_EQ(outer.ring, 0);
  EXPECT_EQ(outer.line, marked.line);
}

TEST(StyleLimits, TheOriginalDrawsFiveLevelsAndAnyStyleItsOwnLimit) {
  EXPECT_EQ(style_defect(RenderStyle{}, Variant{}, ConfigId::kOutInGrid), "");
  EXPECT_NE(style_defect(RenderStyle{}, Variant{.values = 6}, ConfigId::kCenterSingle)
                .find("original style"),
            std::string::npos);
  const RenderStyle clean = parse_style("clean");
  EXPECT_EQ(style_defect(clean, Variant{}, ConfigId::kOutInGrid), "");
  const int most = max_drawable_values(clean, Variant{}, ConfigId::kCenterSingle);
  EXPECT_GT(most, 5);
  EXPECT_EQ(style_defect(clean, Variant{.values = most}, ConfigId::kCenterSingle), "");
  const std::string why = style_defect(clean, Variant{.values = most + 1}, ConfigId::kCenterSingle);
  EXPECT_NE(why.find("at most --values " + std::to_string(most)), std::string::npos) << why;
  EXPECT_EQ(why.find('\n'), std::string::npos);
  EXPECT_NE(style_defect(clean, Variant{.values = 1000}, ConfigId::kCenterSingle), "");
}

TEST(StyleLimits, ALargerPanelDrawsMoreLevels) {
  const Variant v{};
  const int small =
      max_drawable_values(parse_style("clean:size=160"), v, ConfigId::kDistributeNine);
  const int large =
      max_drawable_values(parse_style("clean:size=512"), v, ConfigId::kDistributeNine);
  EXPECT_GT(large, small);
}

TEST(StyleLimits, ConfoundersNeedRoomAndAtMostFour) {
  const RenderStyle bold = parse_style("bold");
  EXPECT_EQ(style_defect(bold, Variant{.confounders = 3}, ConfigId::kCenterSingle), "");
  EXPECT_NE(
      style_defect(bold, Variant{.confounders = 5}, ConfigId::kCenterSingle).find("at most 4"),
      std::string::npos);
  const std::string tiny =
      style_defect(parse_style("clean:size=64"), Variant{.confounders = 3}, ConfigId::kOutInGrid);
  EXPECT_NE(tiny, "");
}

}  // namespace
}  // namespace rave::engine
