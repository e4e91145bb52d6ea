#include "perception/styled_cell.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace rave::perception {
namespace {

constexpr int kGrid = 4;  // the sparse grid of the first scoring: every 4th pixel both ways

bool edge(const std::uint8_t* a, int p, int x, int y, int side) {
  const std::uint8_t v = a[p];
  return (x > 0 && a[p - 1] != v) || (x + 1 < side && a[p + 1] != v) ||
         (y > 0 && a[p - side] != v) || (y + 1 < side && a[p + side] != v);
}

}  // namespace

SlotCell::SlotCell(const StyledLayout& layout, int component, int slot, const std::uint8_t* image,
                   const std::uint8_t* canvas, int side, double reach)
    : image_(image), canvas_(canvas), side_(side) {
  const StyledComponent& part = layout.component(component);
  place_ = part.places[static_cast<std::size_t>(slot)];
  auto clip = [side](double v) { return std::clamp(static_cast<int>(std::floor(v)), 0, side); };
  const int x0 = clip(place_.cx - reach), x1 = clip(place_.cx + reach + 1);
  const int y0 = clip(place_.cy - reach), y1 = clip(place_.cy + reach + 1);
  const double hidden2 = part.hidden * part.hidden, mid = side / 2.0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      const int p = y * side + x;
      if (part.owner[static_cast<std::size_t>(p)] != slot || layout.separator(p)) continue;
      const double dx = x + 0.5 - mid, dy = y + 0.5 - mid;
      if (part.hidden > 0 && dx * dx + dy * dy < hidden2) continue;
      all.push_back(p);
      if (image[p] != canvas[p]) diff.push_back(p);
      if (x % 2 == 0 && y % 2 == 0) sparse.push_back(p);
      if ((x % kGrid == 0 && y % kGrid == 0) || edge(image, p, x, y, side) ||
          edge(canvas, p, x, y, side))
        edges.push_back(p);
    }
}

std::uint64_t SlotCell::key() const {
  std::uint64_t h = 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint64_t>(all.size());
  for (const int p : all) {
    h ^= static_cast<std::uint64_t>(image_[p]) | static_cast<std::uint64_t>(canvas_[p]) << 8 |
         static_cast<std::uint64_t>(p) << 16;
    h *= 0x100000001B3ULL;
    h ^= h >> 29;
  }
  return h;
}

long SlotCell::score(const engine::EntityRaster& raster, const std::vector<int>& pixels,
                     long stop) const {
  const engine::PixelBox box = raster.box(side_);
  long sum = 0;
  for (const int p : pixels) {
    const int x = p % side_, y = p / side_;
    const bool inside = x >= box.x0 && x < box.x1 && y >= box.y0 && y < box.y1;
    const int drawn = inside ? raster.over(x, y, canvas_[p]) : canvas_[p];
    sum += std::abs(drawn - image_[p]);
    if (sum > stop) return sum;
  }
  return sum;
}

}  // namespace rave::perception
