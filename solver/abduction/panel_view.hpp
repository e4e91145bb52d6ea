#pragma once
// The solver's compact copy of one component of a problem: 16 panels (8 context, 8 candidates) as
// fixed-size values (entity count, slot bit set, the level all entities share, and per attribute
// the levels by slot, packed in 64 bits). Built once per problem, so every
// hypothesis check is a few integer comparisons, and comparing two panels' levels of one attribute
// (the carries of docs/rules.md) is one compare, without loops or data-dependent branches.
// Nothing here depends on the order in which a file lists the entities (a picture does not show
// it): entities are known by their slot, and Uniformity is inferred from the panels.
//
//   const LayoutModel* models[1] = {&layout_model(problem.config, 0)};
//   ComponentView view;
//   build_views(problem, 1, models, &view);
//   view.panels[8 + i]   // candidate i
#include <array>
#include <bit>
#include <cstdint>

#include "engine/model/problem.hpp"
#include "solver/abduction/hypothesis.hpp"

namespace rave::solver {

/// Levels of one attribute over a panel's slots, packed 4 bits each: level + 1 in bits 4k..4k+3
/// for slot k, 0 where there is none. Levels lie in 0..14 (LayoutModel's ranges, checked), so
/// comparing two panels' levels is one 64-bit compare.
using PackedLevels = std::uint64_t;

/// One component of one panel. An unusable panel (no entities, more entities than slots, a slot
/// outside the layout or used twice, a level outside the layout's range) reads as empty: count 0,
/// mask 0, common -1, no levels.
struct PanelView {
  int count = 0;                           ///< entities; 0 marks an unusable panel
  std::uint16_t mask = 0;                  ///< occupied slots, bit s = slot s
  std::array<std::int8_t, 4> common{};     ///< per EntityAttr: level shared by all, or -1
  std::array<PackedLevels, 4> by_slot{};   ///< [attr] levels by slot
  int level() const { return count - 1; }  ///< Number level
};

/// The 16 panels of one component: [0..7] context row-major, [8..15] candidates.
struct ComponentView {
  std::array<PanelView, 16> panels;
  bool uniform = false;  ///< Uniformity level 3 (docs/format.md), inferred (see looks_uniform)
};

/// Throws UsageError unless the solver can read `problem`: a 3x3 matrix with the original level
/// ranges and rules (a variant's confounders are ignored; docs/variants.md lists what it cannot
/// read).
void check_solvable(const engine::Problem& problem);
/// Fills views[c] from component c (c < components, at most 2) of every panel of `problem`, with
/// models[c] its layout. Unusable panels (see PanelView) are left empty: no rule explains them.
/// Uniformity is inferred from the context panels (looks_uniform), never read from the file;
/// `angle` says whether Angle takes part in that inference.
void build_views(const engine::Problem& problem, int components, const LayoutModel* const* models,
                 ComponentView* views, bool angle = true);

/// Uniformity as a picture shows it (docs/solver.md): every context panel's entities are
/// identical in Type, Size, Color (and Angle, with `angle`), and some context panel has two or
/// more.
bool looks_uniform(const ComponentView& view, bool angle);

/// The slot set shifted by v (mod n), docs/rules.md#number-and-position-rules Progression Position.
inline std::uint16_t shift_mask(std::uint16_t mask, int v, int n) {
  const int k = ((v % n) + n) % n;
  const std::uint32_t full = (1u << n) - 1u;
  const std::uint32_t m = mask;
  return static_cast<std::uint16_t>(((m << k) | (m >> (n - k))) & full);
}
/// Levels by slot moved by v slots (mod n): the entity on slot s goes to (s + v) mod n.
inline PackedLevels shift_levels(PackedLevels by_slot, int v, int n) {
  const int k = ((v % n) + n) % n;
  const PackedLevels full = (PackedLevels{1} << (4 * n)) - 1;
  return ((by_slot << (4 * k)) | (by_slot >> (4 * (n - k)))) & full;
}
inline int popcount(std::uint16_t mask) { return std::popcount(mask); }

}  // namespace rave::solver
