#pragma once
// The grid solver's copy of one component of a problem of any matrix side N (docs/variants.md,
// docs/solver.md#n-x-n-matrices): per panel the entity count, the slot set and, per entity
// attribute (Type, Size, Color), the level every entity shares and the level on each slot, in the
// variant's *sampling levels* (file levels mapped back, engine/model/variant_space.hpp), so that
// every rule reads as the generator applied it. Nothing depends on the order a file lists the
// entities in, and Uniformity is inferred from the context, never read.
//
//   const engine::VariantSpace& space = engine::variant_space(p.config, p.variant, p.split);
//   GridComponent g = build_grid_component(p, /*component=*/0, space);
//   g.panel(row, col, candidate)   // the last panel is candidate `candidate`
#include <array>
#include <cstdint>
#include <vector>

#include "engine/model/problem.hpp"
#include "engine/model/variant_space.hpp"

namespace rave::solver {

/// Entity attributes the rules govern, in rule-group order minus one (Type, Size, Color).
inline constexpr int kGridAttrs = 3;
/// A common level when the entities of a panel differ.
inline constexpr int kMixedLevel = -1;

/// One component of one panel. An unusable panel (no entity, a slot outside the layout or taken
/// twice, a level outside the layout's range or off the variant's level grid) reads as
/// `usable == false`, and no rule explains it.
struct GridPanel {
  bool usable = false;
  int count = 0;                         ///< entities
  std::uint32_t mask = 0;                ///< occupied slots, bit s = slot s
  std::array<int, kGridAttrs> common{};  ///< level shared by all entities, or kMixedLevel
  std::array<std::vector<int>, kGridAttrs> by_slot{};  ///< level on each slot, -1 where empty
  friend bool operator==(const GridPanel&, const GridPanel&) = default;
};

/// One component of a whole problem.
struct GridComponent {
  int grid = 3;                                ///< N
  int slots = 1;                               ///< the layout's slot count
  const engine::LayoutSpec* layout = nullptr;  ///< sampling ranges (variant_space)
  std::vector<GridPanel> context;              ///< N*N-1, row-major
  std::array<GridPanel, engine::kCandidates> candidates{};
  bool uniform = false;   ///< inferred: see looks_uniform_grid
  int size_sum_unit = 1;  ///< what Arithmetic adds to a Size sum: 1 (RAVEN), 0 (ibm_levels)

  /// Panel (row, col) of the matrix whose last panel is candidate `candidate`.
  const GridPanel& panel(int row, int col, int candidate) const {
    const int i = row * grid + col;
    return i == grid * grid - 1 ? candidates[static_cast<std::size_t>(candidate)]
                                : context[static_cast<std::size_t>(i)];
  }
};

/// Builds component `component` of `problem` in the sampling levels of `space`.
GridComponent build_grid_component(const engine::Problem& problem, int component,
                                   const engine::VariantSpace& space);

/// Uniformity as the context shows it: every usable context panel's entities are identical in Type,
/// Size and Color, and some context panel holds two or more.
bool looks_uniform_grid(const GridComponent& g);

}  // namespace rave::solver
