#include "solver/panel_view.hpp"

namespace rave::solver {
namespace {

void fill_panel(const engine::ComponentPanel& source, const LayoutModel& model, PanelView& out) {
  const int slots = model.slots;
  out.count = 0;
  out.mask = 0;
  for (auto& row : out.at_slot) row.fill(-1);
  const auto& entities = source.entities;
  const int count = static_cast<int>(entities.size());
  if (count == 0 || count > slots) return;
  bool same[4] = {true, true, true, true};
  for (int j = 0; j < count; ++j) {
    const engine::Entity& e = entities[j];
    if (e.slot < 0 || e.slot >= slots || (out.mask >> e.slot) & 1u) {
      out.mask = 0;  // unusable: a slot outside the layout or used twice
      return;
    }
    out.mask = static_cast<std::uint16_t>(out.mask | (1u << e.slot));
    out.slot[j] = static_cast<std::uint8_t>(e.slot);
    const int levels[4] = {e.type, e.size, e.color, e.angle};
    for (int a = 0; a < 4; ++a) {
      if (!model.ranges[a].contains(levels[a])) {
        out.mask = 0;  // unusable: a level outside the layout's original range
        return;
      }
      const auto v = static_cast<std::int8_t>(levels[a]);
      out.value[a][j] = v;
      out.at_slot[a][e.slot] = v;
      same[a] = same[a] && v == out.value[a][0];
    }
  }
  for (int a = 0; a < 4; ++a) out.common[a] = same[a] ? out.value[a][0] : std::int8_t{-1};
  out.count = count;
}

}  // namespace

void build_view(const engine::Problem& problem, int component, const LayoutModel& model,
                ComponentView& view) {
  const auto c = static_cast<std::size_t>(component);
  for (int i = 0; i < 16; ++i) {
    const engine::Panel& panel = problem.panel(i);
    PanelView& out = view.panels[static_cast<std::size_t>(i)];
    if (c < panel.components.size()) {
      fill_panel(panel.components[c], model, out);
    } else {
      out.count = 0;
      out.mask = 0;
    }
  }
  const auto& first = problem.context[0].components;
  view.uniform = c < first.size() && first[c].uniformity == engine::kUniformLevel;
}

}  // namespace rave::solver
