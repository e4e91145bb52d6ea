#include "solver/abduction/panel_view.hpp"

#include <bit>
#include <cstddef>
#include <cstring>

#include "common/error.hpp"

namespace rave::solver {
namespace {

// Four 32-bit lanes: an entity's Type, Size, Color and Angle levels (engine::Entity holds them as
// four consecutive ints after the slot), or a layout's bounds on them. GCC/Clang vector types:
// SSE2 on x86-64, NEON on ARM, plain code elsewhere.
using Lanes4 = std::uint32_t __attribute__((vector_size(16)));
// Two 64-bit lanes of packed levels: (Type, Size) or (Color, Angle).
using Lanes2 = std::uint64_t __attribute__((vector_size(16)));
static_assert(offsetof(engine::Entity, angle) == offsetof(engine::Entity, type) + 3 * sizeof(int));
static_assert(std::endian::native == std::endian::little, "zero-extension by interleaving");

// A layout's level ranges (levels in range: level - low <= span, unsigned) and slot count.
struct Bounds {
  Lanes4 low;
  Lanes4 span;
  unsigned slots;
};

Bounds bounds_of(const LayoutModel& model) {
  Bounds b{};
  for (int a = 0; a < 4; ++a) {
    b.low[a] = static_cast<unsigned>(model.ranges[a].min);
    b.span[a] = static_cast<unsigned>(model.ranges[a].max - model.ranges[a].min);
  }
  b.slots = static_cast<unsigned>(model.slots);
  return b;
}

void clear(PanelView& out) {
  out = PanelView{};
  out.common.fill(-1);
}

// Fills `out` from one component of one panel; false when the panel is unusable (then `out` may
// hold part of it). Each entity's four levels are range-checked and packed at once (unsigned
// arithmetic: any int is a possible, invalid, level), without data-dependent branches. The result
// does not depend on the order of the entities.
bool fill_panel(const engine::ComponentPanel& source, const Bounds& b, PanelView& out) {
  const std::size_t count = source.entities.size();
  if (count == 0 || count > b.slots) return false;
  const engine::Entity* e = source.entities.data();
  Lanes4 first;
  std::memcpy(&first, &e[0].type, sizeof first);
  unsigned mask = 0;
  Lanes4 outside{}, differs{};
  const Lanes4 zero{};
  Lanes2 slot_ts{}, slot_ca{};  // by slot: (Type, Size), (Color, Angle)
  for (std::size_t j = 0; j < count; ++j) {
    const auto slot = static_cast<unsigned>(e[j].slot);
    if (slot >= b.slots || ((mask >> slot) & 1u))
      return false;  // outside the layout, or used twice
    mask |= 1u << slot;
    Lanes4 levels;
    std::memcpy(&levels, &e[j].type, sizeof levels);
    outside |= std::bit_cast<Lanes4>(levels - b.low > b.span);
    differs |= levels ^ first;
    const Lanes4 packed = (levels + 1u) & 0xFu;
    const auto ts = std::bit_cast<Lanes2>(__builtin_shufflevector(packed, zero, 0, 4, 1, 4));
    const auto ca = std::bit_cast<Lanes2>(__builtin_shufflevector(packed, zero, 2, 4, 3, 4));
    slot_ts |= ts << (4 * slot);
    slot_ca |= ca << (4 * slot);
  }
  const auto bad = std::bit_cast<Lanes2>(outside);
  if ((bad[0] | bad[1]) != 0) return false;
  const Lanes4 common = first | std::bit_cast<Lanes4>(differs != zero);  // -1 where entities differ
  for (int a = 0; a < 4; ++a) out.common[a] = static_cast<std::int8_t>(common[a]);
  out.by_slot = {slot_ts[0], slot_ts[1], slot_ca[0], slot_ca[1]};
  out.mask = static_cast<std::uint16_t>(mask);
  out.count = static_cast<int>(count);
  return true;
}

}  // namespace

bool looks_uniform(const ComponentView& view, bool angle) {
  const int attrs = angle ? 4 : kRuleAttrs;
  bool several = false;
  for (int i = 0; i < 8; ++i) {
    const PanelView& p = view.panels[i];
    if (p.count == 0) return false;
    for (int a = 0; a < attrs; ++a)
      if (p.common[a] < 0) return false;
    several = several || p.count >= 2;
  }
  return several;
}

void check_solvable(const engine::Problem& problem) {
  const engine::Variant& v = problem.variant;
  if (v.grid == engine::kDefaultGrid && v.values == 0 && v.regime != engine::Regime::kInterpolation)
    return;
  throw UsageError(
      "the solver reads 3x3 problems with the original value ranges; this problem has grid " +
      std::to_string(v.grid) + ", values " + std::to_string(v.values) + ", regime " +
      std::string(engine::regime_name(v.regime)) + " (docs/variants.md)");
}

void build_views(const engine::Problem& problem, int components, const LayoutModel* const* models,
                 ComponentView* views, bool angle) {
  check_solvable(problem);
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
    const Bounds bounds = bounds_of(*models[c]);
    for (int i = 0; i < 16; ++i) {
      PanelView& out = views[c].panels[i];
      if (sources[c][i] == nullptr || !fill_panel(*sources[c][i], bounds, out)) clear(out);
    }
    views[c].uniform = looks_uniform(views[c], angle);
  }
}

}  // namespace rave::solver
