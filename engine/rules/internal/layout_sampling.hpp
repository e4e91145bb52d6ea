#pragma once
// Internal to the sampler: how a Layout samples and regenerates its entities
// (docs/rules.md#the-first-panel, #rows, #number-and-position-rules). A ComponentFrame is what
// stays fixed for one component during a problem: its slot count and its narrowed ranges (the
// ranges every fresh entity is drawn from).
//
//   ComponentFrame frame{.slot_count = 4, .ranges = narrowed[0]};
//   ComponentPanel p = sample_layout(frame, rng);          // Number, Position, Uniformity,
//   entities regenerate_entities(target, p.entities[0], /*count=*/3, frame, rng);
#include <array>
#include <span>
#include <vector>

#include "common/random.hpp"
#include "engine/model/constraints.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine::internal {

/// One component's fixed sampling context.
struct ComponentFrame {
  int slot_count = 1;          ///< size of the layout's slot table
  LayoutConstraints ranges;    ///< narrowed constraints (spec 4.3)
  LayoutConstraints original;  ///< the layout's constraints before pruning
  int grid = kDefaultGrid;     ///< N: columns per row, rows per matrix
};

/// Rejection loops inside one problem give up after this many draws with a logic_error.
inline constexpr int kMaxRedraws = 10000;

/// True when the layout's Uniformity level means "uniform" (level 3).
inline bool is_uniform(const ComponentPanel& panel) { return panel.uniformity == kUniformLevel; }

/// Redraws Type, Size, Color and Angle of `entity` uniformly in `ranges` (slot kept).
void resample_entity(Entity& entity, const LayoutConstraints& ranges, Rng& rng);
/// `count` distinct slot indices of [0, slot_count) in draw order (a uniform random subset).
std::vector<int> sample_slots(int slot_count, int count, Rng& rng);
/// Fresh entities on `slots` (docs/rules.md#the-first-panel): uniform layout: the first is sampled,
/// the others copy it; non-uniform: each is sampled independently. Replaces `panel.entities`.
void fill_entities(ComponentPanel& panel, std::span<const int> slots,
                   const LayoutConstraints& ranges, Rng& rng);
/// A whole fresh layout (docs/rules.md#the-first-panel): Number uniform in the range, positions,
/// Uniformity, entities.
ComponentPanel sample_layout(const ComponentFrame& frame, Rng& rng);
/// Row 2/3 col1 (docs/rules.md#rows): new Number, positions and entities; Uniformity kept.
void resample_layout(ComponentPanel& panel, const ComponentFrame& frame, Rng& rng);
/// D3 rows 2/3 (docs/rules.md#number-and-position-rules): positions and entities resampled for the
/// given Number level.
void resample_layout_with_number(ComponentPanel& panel, int number_level,
                                 const ComponentFrame& frame, Rng& rng);
/// "Regenerate entities" of docs/rules.md#number-and-position-rules on given slots: each new entity
/// copies `prototype` (the reference's first entity) and, in a non-uniform layout, redraws all four
/// attributes.
void place_regenerated(ComponentPanel& target, const Entity& prototype, std::span<const int> slots,
                       const ComponentFrame& frame, Rng& rng);
/// The same on `count` freshly sampled slots.
void regenerate_entities(ComponentPanel& target, const Entity& prototype, int count,
                         const ComponentFrame& frame, Rng& rng);
/// Moves entity i to slots[i] (entities keep their values); sizes must match.
void move_entities(ComponentPanel& panel, std::span<const int> slots);
/// Slot indices of a panel in entity (Position) order.
std::vector<int> slots_of(const ComponentPanel& panel);
/// True when the two slot lists hold the same set.
bool same_set(std::span<const int> a, std::span<const int> b);
/// True when every slot of `a` is in `b`.
bool is_subset(std::span<const int> a, std::span<const int> b);

/// Distribute_N row orders: row r shows the N values cyclically shifted by shifts[r], so column c
/// of row r holds value (c + shifts[r]) mod N. Row 1 is unshifted; rows 2..N take the other shifts
/// in random order. At N = 3 this is the original's draw (spec 6.2): with probability 1/2 rows 2, 3
/// use (1,2,0), (2,0,1), otherwise (2,0,1), (1,2,0), decided by one coin.
struct RowShifts {
  std::vector<int> shifts;  ///< per row
  /// Index into the N values of column `col` of row `row`.
  std::size_t at(int row, int col) const {
    const int n = static_cast<int>(shifts.size());
    return static_cast<std::size_t>((col + shifts[static_cast<std::size_t>(row)]) % n);
  }
};
RowShifts sample_row_shifts(int grid, Rng& rng);

}  // namespace rave::engine::internal
