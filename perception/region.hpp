#pragma once
// A set of panel pixels as row runs, and the few things perception does with one: hash the
// image's pixels there (an exact lookup key), test them for white, compare two images there.
// Regions are where one slot's entity can draw (perception/slot_table.hpp).
//
//   Region r = Region::from_mask(mask);                 // mask[p] != 0: pixel p belongs
//   std::uint64_t key = hash_pixels(image.data(), r);   // equal pixels there, equal key
#include <cstdint>
#include <vector>

#include "engine/model/image.hpp"

namespace rave::perception {

/// Pixels y * kPanelSize + x of a panel, as runs along rows, in raster order.
class Region {
 public:
  struct Run {
    std::int16_t y = 0, x = 0, length = 0;
  };
  /// The pixels where `mask` is nonzero.
  static Region from_mask(const engine::Image& mask);
  /// The pixels of these runs (raster order, as runs() gives them).
  static Region from_runs(const std::vector<Run>& runs);

  /// An 8-byte load of the region for hashing: the pixels at [offset, offset + 8) masked to the
  /// region's (the last word of a run overlaps the one before it instead of reading past the run).
  struct Word {
    std::int32_t offset = 0;
    std::uint64_t mask = ~std::uint64_t{0};
  };
  const std::vector<Run>& runs() const { return runs_; }
  const std::vector<Word>& words() const { return words_; }
  int pixels() const { return pixels_; }
  bool empty() const { return pixels_ == 0; }
  /// Calls f(offset, length) for every run, offset = y * kPanelSize + x.
  template <class F>
  void for_each_run(F f) const {
    for (const Run& r : runs_) f(r.y * engine::kPanelSize + r.x, static_cast<int>(r.length));
  }

 private:
  void add_words(int offset, int length);

  std::vector<Run> runs_;
  std::vector<Word> words_;
  int pixels_ = 0;
};

/// A 64-bit key of the image's pixels in `region` (in raster order): equal pixels give equal keys;
/// different pixels collide with probability about 2^-64.
std::uint64_t hash_pixels(const std::uint8_t* image, const Region& region);
/// Whether every pixel of `region` is 255 (white).
bool all_white(const std::uint8_t* image, const Region& region);
/// Whether `a` and `b` agree on every pixel of `region`.
bool same_pixels(const std::uint8_t* a, const std::uint8_t* b, const Region& region);
/// Copies the pixels of `region` from `image` into `out`, in raster order (region.pixels() bytes).
void gather(const std::uint8_t* image, const Region& region, std::uint8_t* out);

}  // namespace rave::perception
