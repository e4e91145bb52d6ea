#include "solver/grid/grid_view.hpp"

namespace rave::solver {
namespace {

std::array<engine::Range, kGridAttrs> ranges_of(const engine::LayoutSpec& layout) {
  return {layout.type, layout.size, layout.color};
}

int file_level(const engine::Entity& e, int attr) {
  return attr == 0 ? e.type : attr == 1 ? e.size : e.color;
}

GridPanel read_panel(const engine::ComponentPanel& cp, const engine::LayoutSpec& layout,
                     const engine::LevelMaps& maps) {
  GridPanel p;
  const int slots = static_cast<int>(layout.slots.size());
  const auto ranges = ranges_of(layout);
  for (auto& levels : p.by_slot) levels.assign(static_cast<std::size_t>(slots), -1);
  p.common.fill(kMixedLevel);
  for (std::size_t i = 0; i < cp.entities.size(); ++i) {
    const engine::Entity& e = cp.entities[i];
    if (e.slot < 0 || e.slot >= slots || (p.mask >> e.slot & 1u) != 0) return GridPanel{};
    p.mask |= 1u << e.slot;
    for (int a = 0; a < kGridAttrs; ++a) {
      const std::optional<int> level = maps[static_cast<std::size_t>(a)].index(file_level(e, a));
      if (!level || !ranges[static_cast<std::size_t>(a)].contains(*level)) return GridPanel{};
      p.by_slot[static_cast<std::size_t>(a)][static_cast<std::size_t>(e.slot)] = *level;
      if (i == 0)
        p.common[static_cast<std::size_t>(a)] = *level;
      else if (p.common[static_cast<std::size_t>(a)] != *level)
        p.common[static_cast<std::size_t>(a)] = kMixedLevel;
    }
  }
  p.count = static_cast<int>(cp.entities.size());
  p.usable = p.count > 0;
  return p;
}

}  // namespace

GridComponent build_grid_component(const engine::Problem& problem, int component,
                                   const engine::VariantSpace& space) {
  GridComponent g;
  const auto c = static_cast<std::size_t>(component);
  g.grid = problem.variant.grid;
  g.layout = &space.config.components.at(c).layout;
  g.slots = static_cast<int>(g.layout->slots.size());
  g.size_sum_unit = problem.variant.ibm_levels ? 0 : 1;
  const engine::LevelMaps& maps = space.maps.at(c);
  g.context.reserve(problem.context.size());
  for (const engine::Panel& p : problem.context)
    g.context.push_back(read_panel(p.components.at(c), *g.layout, maps));
  for (std::size_t i = 0; i < g.candidates.size(); ++i)
    g.candidates[i] = read_panel(problem.candidates[i].components.at(c), *g.layout, maps);
  g.uniform = looks_uniform_grid(g);
  return g;
}

bool looks_uniform_grid(const GridComponent& g) {
  bool several = false;
  for (const GridPanel& p : g.context) {
    if (!p.usable) return false;
    for (int level : p.common)
      if (level == kMixedLevel) return false;
    several = several || p.count >= 2;
  }
  return several;
}

}  // namespace rave::solver
