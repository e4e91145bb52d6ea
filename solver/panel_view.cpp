#include "solver/panel_view.hpp"

#include "common/error.hpp"

namespace rave::solver {
namespace {

void fill_panel(const engine::ComponentPanel& source, const LayoutModel& model, PanelView& out) {
  out.count = 0;
  out.mask = 0;
  const int count = static_cast<int>(source.entities.size());
  if (count == 0 || count > model.slots) return;
  const engine::Entity* e = source.entities.data();
  const int first[4] = {e[0].type, e[0].size, e[0].color, e[0].angle};
  // Locals, not model.ranges: the int8 stores below may alias anything, which would force reloads.
  int low[4], span[4];
  for (int a = 0; a < 4; ++a) low[a] = model.ranges[a].min, span[a] = model.ranges[a].max - model.ranges[a].min;
  const unsigned slots = static_cast<unsigned>(model.slots);
  unsigned mask = 0;
  bool same[4] = {true, true, true, true};
  for (int j = 0; j < count; ++j) {
    const int levels[4] = {e[j].type, e[j].size, e[j].color, e[j].angle};
    const auto slot = static_cast<unsigned>(e[j].slot);
    if (slot >= slots || ((mask >> slot) & 1u)) return;  // outside the layout, or used twice
    mask |= 1u << slot;
    out.slot[j] = static_cast<std::uint8_t>(slot);
    for (int a = 0; a < 4; ++a) {
      if (static_cast<unsigned>(levels[a] - low[a]) > static_cast<unsigned>(span[a])) return;  // out of range
      out.value[a][j] = static_cast<std::int8_t>(levels[a]);
      same[a] = same[a] && levels[a] == first[a];
    }
  }
  for (int a = 0; a < 4; ++a) out.common[a] = same[a] ? static_cast<std::int8_t>(first[a]) : std::int8_t{-1};
  out.mask = static_cast<std::uint16_t>(mask);
  out.count = count;
}

}  // namespace

void build_views(const engine::Problem& problem, int components, const LayoutModel* const* models,
                 ComponentView* views) {
  RAVE_CHECK(components >= 1 && components <= 2, "one or two components");
  // Two passes: first find every panel's entity arrays (independent loads the CPU overlaps, and a
  // prefetch of each array), then fill. Problems just read are hot, but a batch held in memory is
  // not, and the walk through the Problem's vectors is otherwise one cache miss after another.
  std::array<std::array<const engine::ComponentPanel*, 16>, 2> sources{};
  for (int i = 0; i < 16; ++i) {
    const auto& panel_components = problem.panel(i).components;
    for (int c = 0; c < components && c < static_cast<int>(panel_components.size()); ++c) {
      sources[c][i] = &panel_components[c];
      __builtin_prefetch(sources[c][i]->entities.data());
    }
  }
  for (int c = 0; c < components; ++c) {
    for (int i = 0; i < 16; ++i) {
      PanelView& out = views[c].panels[i];
      if (sources[c][i] != nullptr) {
        fill_panel(*sources[c][i], *models[c], out);
      } else {
        out.count = 0;
        out.mask = 0;
      }
    }
    const auto& first = problem.context[0].components;
    views[c].uniform = c < static_cast<int>(first.size()) && first[c].uniformity == engine::kUniformLevel;
  }
}

}  // namespace rave::solver
