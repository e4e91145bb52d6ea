// rave's own renderer for render styles (engine/render/styled.hpp) and render_problem's dispatch:
// the original style stays the original's bytes; a style draws at its size, deterministically,
// with coverage-weighted edges only when it anti-aliases, and tells adjacent levels apart.
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "engine/encode.hpp"
#include "engine/formats/npz.hpp"
#include "engine/generate.hpp"
#include "engine/model/style_limits.hpp"
#include "engine/render/render.hpp"
#include "engine/render/styled.hpp"

namespace rave::engine {
namespace {

Problem problem_in(const std::string& style, ConfigId config, const Variant& variant = {}) {
  Problem p = generate_problem(config, AnswerStrategy::kRaven, 7, 3, variant, Split::kTrain);
  p.style = parse_style(style);
  return p;
}

TEST(StyledRender, TheOriginalStyleIsTheOriginalsBytes) {
  for (const Configuration& c : all_configurations()) {
    const Problem p = generate_problem(c.id, AnswerStrategy::kIRaven, 11, 5);
    PanelStack stack;
    render_problem(p, stack);
    const std::vector<Image> images = render_problem(p);
    ASSERT_EQ(stack.side, kPanelSize);
    ASSERT_EQ(stack.count(), kPanels);
    for (int i = 0; i < kPanels; ++i)
      EXPECT_EQ(
          std::memcmp(stack.panel(i), images[static_cast<std::size_t>(i)].data(), kPanelPixels), 0)
          << c.folder << " panel " << i;
  }
}

TEST(StyledRender, AStyleDrawsAtItsSizeTheSameBytesEveryTime) {
  const Problem p = problem_in("clean:size=200", ConfigId::kDistributeNine);
  PanelStack a, b;
  render_problem(p, a);
  render_problem(p, b);
  EXPECT_EQ(a.side, 200);
  EXPECT_EQ(a.count(), kPanels);
  EXPECT_EQ(a.pixels, b.pixels);
  EXPECT_EQ(a.panel(0)[0], 255);  // the background in a corner
}

std::set<int> grays(const PanelStack& s) { return {s.pixels.begin(), s.pixels.end()}; }

TEST(StyledRender, EdgesAreWeightedOnlyWhenTheStyleAntialiases) {
  const Problem smooth = problem_in("clean", ConfigId::kCenterSingle);
  const Problem hard = problem_in("classic", ConfigId::kCenterSingle);
  PanelStack s, h;
  render_problem(smooth, s);
  render_problem(hard, h);
  std::set<int> allowed{255, 0};  // background, line
  const LevelLooks looks(hard.style, hard.variant);
  for (int c = 1; c < looks.color_levels(); ++c) allowed.insert(looks.fill(c));
  for (int g : grays(h)) EXPECT_TRUE(allowed.count(g)) << g;
  EXPECT_GT(grays(s).size(), allowed.size() + 20);
}

// Two entities of one slot drawn alone, alike but for one field.
bool differ(const RenderStyle& style, const Variant& v, ConfigId config, Entity a, Entity b,
            std::vector<int> ca = {}, std::vector<int> cb = {}) {
  const LevelLooks looks(style, v);
  std::vector<std::uint8_t> pa(static_cast<std::size_t>(style.size) * style.size), pb(pa.size());
  Panel one, two;
  one.components.resize(configuration(config).components.size());
  two.components = one.components;
  one.components.back().entities = {a};
  one.components.back().confounders = std::move(ca);
  two.components.back().entities = {b};
  two.components.back().confounders = std::move(cb);
  if (configuration(config).components.size() == 2) {  // the Out part must hold its shape
    const Entity out{
        .slot = 0, .type = 5, .size = v.values ? v.values - 1 : 5, .color = 0, .angle = 3};
    one.components[0].entities = two.components[0].entities = {out};
    one.components[0].confounders = two.components[0].confounders =
        std::vector<int>(static_cast<std::size_t>(v.confounders), 0);
  }
  render_styled_panel(config, one, looks, pa.data());
  render_styled_panel(config, two, looks, pb.data());
  return pa != pb;
}

TEST(StyledRender, AdjacentLevelsDrawDifferentlyAtTheLimit) {
  const RenderStyle style = parse_style("clean");
  const ConfigId config = ConfigId::kDistributeNine;
  const int most = max_drawable_values(style, Variant{.confounders = 3}, config);
  ASSERT_GT(most, 5);
  const Variant v{.values = most, .confounders = 3};
  ASSERT_EQ(style_defect(style, v, config), "");
  const Entity base{.slot = 4, .type = 1, .size = 0, .color = 1, .angle = 3};
  const std::vector<int> zero{0, 0, 0};
  for (int level = 0; level + 1 < most; ++level) {
    Entity a = base, b = base;
    a.size = level, b.size = level + 1;
    EXPECT_TRUE(differ(style, v, config, a, b, zero, zero)) << "Size " << level;
    a = base, b = base;
    a.color = level, b.color = level + 1;
    EXPECT_TRUE(differ(style, v, config, a, b, zero, zero)) << "Color " << level;
    if (level >= 1) {
      a = base, b = base;
      a.type = level, b.type = level + 1;
      EXPECT_TRUE(differ(style, v, config, a, b, zero, zero)) << "Type " << level;
    }
    for (std::size_t k = 0; k < 3; ++k) {
      std::vector<int> ca = zero, cb = zero;
      ca[k] = level, cb[k] = level + 1;
      EXPECT_TRUE(differ(style, v, config, base, base, ca, cb)) << "confounder " << k;
    }
  }
}

TEST(StyledRender, TheNpzHoldsTheStylesPanelsAndTheXmlItsText) {
  const Problem p = problem_in("dark:size=96", ConfigId::kLeftRight, Variant{.grid = 4});
  const ProblemFiles files = encode_problem_files(p);
  const NpzFile npz = parse_npz(files.npz, "p.npz");
  int grid = 0, side = 0;
  EXPECT_EQ(npz.panels(grid, side).size(), static_cast<std::size_t>(panel_count(4)) * 96 * 96);
  EXPECT_EQ(grid, 4);
  EXPECT_EQ(side, 96);
  EXPECT_NE(files.xml.find("style=\"dark:size=96,"), std::string::npos);
  EXPECT_EQ(files.xml.find("real_bbox"), std::string::npos);
  EXPECT_EQ(parse_problem_xml(files.xml, "p.xml").style, p.style);
}

TEST(StyledRender, AStyleRefusesWhatItCannotTellApart) {
  const Problem p = problem_in("clean:size=64", ConfigId::kOutInGrid, Variant{.values = 40});
  PanelStack stack;
  EXPECT_THROW(render_problem(p, stack), UsageError);
}

}  // namespace
}  // namespace rave::engine
