#pragma once
// The pixels one slot of a render style's panel is read from (perception/styled_entity.hpp):
// those the slot owns, within the reach of its largest entity, less separators and what a later
// component covers; which of them differ from what lies below; which carry edges (scored first);
// and the score of a trial entity: the sum of absolute differences between its drawing over what
// lies below and the image.
//
//   const SlotCell cell(layout, component, slot, image, canvas, widest_reach);
//   if (cell.diff.empty()) ...                                   // an empty slot
//   long sad = cell.score(EntityRaster(place, look, style), cell.all, LONG_MAX);
#include <climits>
#include <cstdint>
#include <vector>

#include "engine/render/styled.hpp"
#include "perception/styled_layout.hpp"

namespace rave::perception {

class SlotCell {
 public:
  /// `reach`: pixels from the slot's centre its largest entity can reach.
  SlotCell(const StyledLayout& layout, int component, int slot, const std::uint8_t* image,
           const std::uint8_t* canvas, int side, double reach);

  const engine::EntityPlace& place() const { return place_; }
  const std::uint8_t* image() const { return image_; }
  const std::uint8_t* canvas() const { return canvas_; }
  int side() const { return side_; }
  /// Sum of |drawing over the canvas - image| over `pixels` (flat indices), stopping past `stop`.
  long score(const engine::EntityRaster& raster, const std::vector<int>& pixels,
             long stop = LONG_MAX) const;
  /// A 64-bit key of the image and canvas pixels read: equal keys, equal readings.
  std::uint64_t key() const;

  std::vector<int> all;     ///< every pixel read
  std::vector<int> diff;    ///< those whose image differs from the canvas
  std::vector<int> edges;   ///< edge pixels of image or canvas, and a sparse grid: scored first
  std::vector<int> sparse;  ///< every other pixel both ways (a quarter): estimates are made on it

 private:
  engine::EntityPlace place_;
  const std::uint8_t* image_;
  const std::uint8_t* canvas_;
  int side_;
};

}  // namespace rave::perception
