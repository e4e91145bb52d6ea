#pragma once
// The solver's compact copy of one component of a problem: 16 panels (8 context, 8 candidates) as
// fixed-size arrays (entity count, slot bit set, per-attribute levels in entity order, and the level
// all entities share). Built once per problem, so every hypothesis check is a few byte comparisons
// and no check walks the Problem's vectors.
//
//   const LayoutModel* models[1] = {&layout_model(problem.config, 0)};
//   ComponentView view;
//   build_views(problem, 1, models, &view);
//   view.panels[8 + i]   // candidate i
#include <array>
#include <bit>
#include <cstdint>

#include "engine/problem.hpp"
#include "solver/hypothesis.hpp"

namespace rave::solver {

/// One component of one panel.
struct PanelView {
  int count = 0;                 ///< entities; 0 marks an unusable panel (none, or a slot repeated)
  std::uint16_t mask = 0;        ///< occupied slots, bit s = slot s
  std::array<std::int8_t, 4> common{};                  ///< per EntityAttr: level shared by all, or -1
  std::array<std::uint8_t, kMaxSlots> slot{};           ///< entity order -> slot
  std::array<std::array<std::int8_t, kMaxSlots>, 4> value{};    ///< [attr][entity], order of the file
  int level() const { return count - 1; }  ///< Number level
  /// The level of `attr` of the entity on `slot`, -1 when the slot is empty.
  int level_at(int attr, int slot) const {
    for (int j = 0; j < count; ++j)
      if (this->slot[j] == slot) return value[attr][j];
    return -1;
  }
};

/// The 16 panels of one component: [0..7] context row-major, [8..15] candidates.
struct ComponentView {
  std::array<PanelView, 16> panels;
  bool uniform = false;  ///< Uniformity level 3 (spec 3), read from the first context panel
};

/// Fills views[c] from component c (c < components, at most 2) of every panel of `problem`, with
/// models[c] its layout. A panel with no entities, more entities than slots, a slot outside the
/// layout or used twice, or a level outside the layout's original range is unusable (count 0): no
/// rule explains it.
void build_views(const engine::Problem& problem, int components, const LayoutModel* const* models,
                 ComponentView* views);

/// The slot set shifted by v (mod n), spec 6.2 Progression Position.
inline std::uint16_t shift_mask(std::uint16_t mask, int v, int n) {
  const int k = ((v % n) + n) % n;
  const std::uint32_t full = (1u << n) - 1u;
  const std::uint32_t m = mask;
  return static_cast<std::uint16_t>(((m << k) | (m >> (n - k))) & full);
}
inline int popcount(std::uint16_t mask) { return std::popcount(mask); }

}  // namespace rave::solver
