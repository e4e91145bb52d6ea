// The solver's panel views (solver/abduction/panel_view.hpp): the packed levels, the shared level, unusable
// panels read as empty whatever ints they hold, the carries as one compare agree with their
// per-entity definitions (docs/rules.md) on random panels, entities in any order, the view
// does not depend on that order, and Uniformity is inferred from the panels.
#include "solver/abduction/panel_view.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <vector>

#include "common/random.hpp"
#include "engine/generate.hpp"
#include "solver/abduction/fits.hpp"

namespace rave::solver {
namespace {

using engine::ConfigId;
using engine::Entity;

// The view of component 0 of panel 0 of a Distribute_Nine problem whose first panel holds
// `entities`.
PanelView view_of(const std::vector<Entity>& entities) {
  static const engine::Problem base =
      engine::generate_problem(ConfigId::kDistributeNine, engine::AnswerStrategy::kRaven, 5, 0);
  engine::Problem p = base;
  p.context[0].components[0].entities = entities;
  const LayoutModel* model = &layout_model(ConfigId::kDistributeNine, 0);
  ComponentView view;
  build_views(p, 1, &model, &view);
  return view.panels[0];
}

TEST(PanelView, PacksLevelsBySlot) {
  // Entity 0 on slot 2, entity 1 on slot 0: Type and Color shared, Size and Angle not.
  const PanelView v = view_of({Entity{2, 3, 1, 4, 5}, Entity{0, 3, 2, 4, 6}});
  EXPECT_EQ(v.count, 2);
  EXPECT_EQ(v.mask, 0b101);
  EXPECT_EQ(v.common, (std::array<std::int8_t, 4>{3, -1, 4, -1}));
  EXPECT_EQ(v.by_slot[kType], (PackedLevels{4} << 8) | 4);  // level + 1 in nibble `slot`
  EXPECT_EQ(v.by_slot[kSize], (PackedLevels{2} << 8) | 3);
  EXPECT_EQ(v.level(), 1);
}

TEST(PanelView, UnusablePanelsReadAsEmpty) {
  const std::vector<std::vector<Entity>> bad{
      {},                                              // no entity
      {Entity{1, 1, 0, 0, 0}, Entity{1, 2, 0, 0, 0}},  // a slot used twice
      {Entity{9, 1, 0, 0, 0}},                         // no slot 9 in a 3x3 grid
      {Entity{-1, 1, 0, 0, 0}},
      {Entity{0, 0, 0, 0, 0}},        // Type levels start at 1
      {Entity{0, 1, 0, 10, 0}},       // Color levels end at 9
      {Entity{0, INT_MAX, 0, 0, 0}},  // any int, without overflow
      {Entity{0, 1, INT_MIN, 0, 0}},
      {Entity{3, 1, 0, 0, INT_MAX}, Entity{0, 1, 0, 0, 0}},
      std::vector<Entity>(10, Entity{0, 1, 0, 0, 0}),  // more entities than slots
  };
  for (std::size_t k = 0; k < bad.size(); ++k) {
    const PanelView v = view_of(bad[k]);
    EXPECT_EQ(v.count, 0) << k;
    EXPECT_EQ(v.mask, 0) << k;
    EXPECT_EQ(v.common, (std::array<std::int8_t, 4>{-1, -1, -1, -1})) << k;
    EXPECT_EQ(v.by_slot, (std::array<PackedLevels, 4>{})) << k;
  }
}

// The level of `attr` of the entity on `slot`, -1 when the slot is empty.
int level_at(const std::vector<Entity>& entities, int attr, int slot) {
  for (const Entity& e : entities)
    if (e.slot == slot) return std::array<int, 4>{e.type, e.size, e.color, e.angle}[attr];
  return -1;
}

// The carries as docs/rules.md states them, entity by entity.
bool copies(int shift, int attr, const std::vector<Entity>& from, const std::vector<Entity>& to) {
  auto level = [&](const Entity& e) {
    return std::array<int, 4>{e.type, e.size, e.color, e.angle}[attr];
  };
  if (from.size() != to.size()) return false;
  for (const Entity& e : from)
    if (level_at(to, attr, (e.slot + shift + 9) % 9) != level(e)) return false;
  return true;
}

// Random panels of a 3x3 grid, entities in random order; `to` is often a (partial) copy of `from`.
std::vector<Entity> random_panel(Rng& rng) {
  const int count = rng.uniform_int(1, 4);
  std::vector<Entity> out;
  for (int slot : rng.sample(9, count))
    out.push_back(Entity{slot, rng.uniform_int(1, 2), rng.uniform_int(0, 1), rng.uniform_int(0, 1),
                         rng.uniform_int(0, 1)});
  return out;
}

TEST(PanelView, CarriesAsOneCompareAgreeWithTheirPerEntityDefinitions) {
  Rng rng(99);
  int agreed_true = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const std::vector<Entity> from = random_panel(rng);
    std::vector<Entity> to = rng.coin() ? from : random_panel(rng);
    const int shift = rng.uniform_int(-2, 2);
    if (rng.coin())
      for (Entity& e : to) e.slot = (e.slot + shift + 9) % 9;  // a moved copy
    if (rng.coin()) rng.shuffle(std::span<Entity>(to));        // another order
    const PanelView a = view_of(from), b = view_of(to);
    for (int attr = 0; attr < 4; ++attr) {
      const bool slot = carry_copies(CarryKey{Carry::kSlot, 0, false}, attr, 9, a, b);
      const bool shifted = carry_copies(CarryKey{Carry::kShift, shift, false}, attr, 9, a, b);
      ASSERT_EQ(slot, copies(0, attr, from, to)) << trial;
      ASSERT_EQ(shifted, copies(shift, attr, from, to)) << trial;
      agreed_true += slot + shifted;
    }
  }
  EXPECT_GT(agreed_true, 10000);  // both outcomes are exercised
}

// Listing the entities in another order changes nothing in the view (the picture is the same).
TEST(PanelView, TheOrderOfTheEntitiesDoesNotMatter) {
  Rng rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<Entity> entities = random_panel(rng);
    const PanelView a = view_of(entities);
    rng.shuffle(std::span<Entity>(entities));
    const PanelView b = view_of(entities);
    ASSERT_EQ(a.count, b.count);
    ASSERT_EQ(a.mask, b.mask);
    ASSERT_EQ(a.common, b.common);
    ASSERT_EQ(a.by_slot, b.by_slot);
  }
}

// Uniformity as the panels show it (docs/solver.md): identical entities in every context
// panel and some panel with two or more; Angle takes part only when asked.
TEST(PanelView, UniformityIsInferredFromTheContextPanels) {
  ComponentView view;
  const Entity e{0, 3, 2, 4, 1};
  auto panel = [&](const std::vector<int>& slots, int angle_of_last = 1) {
    std::vector<Entity> out;
    for (int s : slots) out.push_back(Entity{s, e.type, e.size, e.color, e.angle});
    out.back().angle = angle_of_last;
    return view_of(out);
  };
  for (int i = 0; i < 8; ++i) view.panels[i] = panel({0});
  EXPECT_FALSE(looks_uniform(view, true));  // one entity everywhere: nothing to compare
  view.panels[3] = panel({0, 4});
  EXPECT_TRUE(looks_uniform(view, true));
  view.panels[5] = panel({2, 6}, /*angle_of_last=*/5);
  EXPECT_FALSE(looks_uniform(view, true));
  EXPECT_TRUE(looks_uniform(view, false));
  view.panels[7] = PanelView{};  // an unusable panel
  EXPECT_FALSE(looks_uniform(view, false));
}

}  // namespace
}  // namespace rave::solver
