#pragma once
// One slot of a render style's panel read back by analysis by synthesis (docs/perception.md#
// render-styles): the pixels that differ from what lies below are the entity's; the outermost of
// them, seen from the slot's centre, fit one (Type, Angle) far better than the others (the spread
// of their distances along that shape's edge normals is least); that fit gives the outline's
// reach, hence Size and outline width; the most common gray inside gives Color, the outline's
// core the outline gray, and the mark-gray pixels the dot and inner outline. The guess is drawn
// with the style's renderer over what lies below and compared; a descent over neighbouring
// levels, one attribute at a time, ends at the entity whose drawing gives the pixels back
// exactly (or at the nearest, with its difference).
//
//   EntityReader reader(looks, /*confounders=*/3);
//   std::optional<SlotReading> r = reader.read(layout, 1, 4, image, canvas);
//   if (r && r->sad == 0) use(r->entity, r->confounders);
#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "engine/model/look.hpp"
#include "engine/model/problem.hpp"
#include "perception/styled_layout.hpp"

namespace rave::perception {

class SlotCell;

/// What one slot shows.
struct SlotReading {
  engine::Entity entity;
  std::vector<int> confounders;  ///< the variant's count (levels of undrawn ones are 0)
  long sad = 0;  ///< sum of absolute differences of its drawing: 0 when it gives the pixels back
};

class EntityReader {
 public:
  EntityReader(const engine::LevelLooks& looks, int confounders);
  /// What slot `slot` of component `component` shows in `image` over `canvas` (the panel drawn so
  /// far); nullopt when its pixels are what lies below (an empty slot).
  std::optional<SlotReading> read(const StyledLayout& layout, int component, int slot,
                                  const std::uint8_t* image, const std::uint8_t* canvas) const;
  /// The look of a reading in component `component`.
  engine::EntityLook look(const SlotReading& r, bool outer) const;

 private:
  std::optional<SlotReading> search(const StyledLayout& layout, int component, int slot,
                                    const SlotCell& cell) const;

  const engine::LevelLooks& looks_;
  int confounders_;
  double widest_;  ///< the widest outline drawn, pixels
  // Slots already read, by their pixels and what lay below (entities recur across panels).
  mutable std::mutex mutex_;
  mutable std::unordered_map<std::uint64_t, std::optional<SlotReading>> known_;
};

}  // namespace rave::perception
