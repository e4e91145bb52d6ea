#include "engine/render/warp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace rave::engine {
namespace {

constexpr int kInterBits = 5;
constexpr int kTabSize = 1 << kInterBits;
constexpr int kAbBits = 10;  // MAX(10, INTER_BITS)
constexpr int kAbScale = 1 << kAbBits;
constexpr int kRoundDelta = kAbScale / kTabSize / 2;
constexpr int kCoefScale = 1 << 15;  // INTER_REMAP_COEF_SCALE

// cvRound / saturate_cast<int>(double): round half to even (SSE2 cvtsd2si, default rounding).
int cv_round(double v) { return static_cast<int>(std::nearbyint(v)); }

short saturate_short(float v) {
  const long r = std::lrintf(v);
  return static_cast<short>(
      std::clamp<long>(r, std::numeric_limits<short>::min(), std::numeric_limits<short>::max()));
}

// The 1-D linear weights (1 - x, x) of each of the kTabSize sub-pixel offsets.
std::array<float, 2 * kTabSize> linear_weights() {
  std::array<float, 2 * kTabSize> tab1{};
  const float scale = 1.f / kTabSize;
  for (int i = 0; i < kTabSize; ++i) {
    const float x = static_cast<float>(i) * scale;
    tab1[static_cast<std::size_t>(2 * i)] = 1.f - x;
    tab1[static_cast<std::size_t>(2 * i + 1)] = x;
  }
  return tab1;
}

// initInterTab2D's sum correction of one entry whose weights add up to `isum`, not kCoefScale:
// the difference taken from the largest of k1, k2 in {1, 2} (when short) or the smallest (when
// over). See build_weights for the offsets it reaches.
void correct_sum(short* itab, int isum) {
  const int diff = isum - kCoefScale;
  int big1 = 1, big2 = 1, small1 = 1, small2 = 1;
  for (int k1 = 1; k1 < 3; ++k1)
    for (int k2 = 1; k2 < 3; ++k2) {
      if (itab[k1 * 2 + k2] < itab[small1 * 2 + small2])
        small1 = k1, small2 = k2;
      else if (itab[k1 * 2 + k2] > itab[big1 * 2 + big2])
        big1 = k1, big2 = k2;
    }
  if (diff < 0)
    itab[big1 * 2 + big2] = static_cast<short>(itab[big1 * 2 + big2] - diff);
  else
    itab[small1 * 2 + small2] = static_cast<short>(itab[small1 * 2 + small2] - diff);
}

// initInterTab2D(INTER_LINEAR, fixpt=true) of imgwarp.cpp. The sum correction indexes
// k1, k2 in {1, 2} of a 2x2 kernel, i.e. offsets 3..6 from the entry, which reach into the next
// (still zero) entries; it only fires for entry 0, whose weight 1.0 saturates to 32767, and
// moves the missing unit to the bottom-right weight. `flat` has room for that overreach.
BilinearWeights build_weights() {
  const std::array<float, 2 * kTabSize> tab1 = linear_weights();
  std::array<short, kTabSize * kTabSize * 4 + 4> flat{};
  for (int i = 0; i < kTabSize; ++i)
    for (int j = 0; j < kTabSize; ++j) {
      short* itab = flat.data() + 4 * (i * kTabSize + j);
      int isum = 0;
      for (int k1 = 0; k1 < 2; ++k1)
        for (int k2 = 0; k2 < 2; ++k2) {
          const float v = tab1[static_cast<std::size_t>(2 * i + k1)] *
                          tab1[static_cast<std::size_t>(2 * j + k2)];
          isum += itab[k1 * 2 + k2] = saturate_short(v * kCoefScale);
        }
      if (isum != kCoefScale) correct_sum(itab, isum);
    }
  BilinearWeights out{};
  for (std::size_t e = 0; e < out.size(); ++e)
    for (std::size_t k = 0; k < 4; ++k) out[e][k] = flat[4 * e + k];
  return out;
}

}  // namespace

const BilinearWeights& bilinear_weights() {
  static const BilinearWeights table = build_weights();
  return table;
}

FixedPointWarp::FixedPointWarp(const Affine& forward) : inverse_(warp_inverse(forward)) {
  const auto& m = inverse_.m;
  for (int x = 0; x < kPanelSize; ++x) {
    adelta_[static_cast<std::size_t>(x)] = cv_round(m[0] * x * kAbScale);
    bdelta_[static_cast<std::size_t>(x)] = cv_round(m[3] * x * kAbScale);
  }
}

FixedPointWarp::Row FixedPointWarp::row(int y) const {
  const auto& m = inverse_.m;
  return {cv_round((m[1] * y + m[2]) * kAbScale) + kRoundDelta,
          cv_round((m[4] * y + m[5]) * kAbScale) + kRoundDelta};
}

SamplePoint FixedPointWarp::sample(const Row& row, int x) const {
  const int fx = (row.x0 + adelta_[static_cast<std::size_t>(x)]) >> (kAbBits - kInterBits);
  const int fy = (row.y0 + bdelta_[static_cast<std::size_t>(x)]) >> (kAbBits - kInterBits);
  return {fx >> kInterBits, fy >> kInterBits,
          (fy & (kTabSize - 1)) * kTabSize + (fx & (kTabSize - 1))};
}

Image warp_bilinear(const Affine& forward, const Image& src) {
  const FixedPointWarp warp(forward);
  const auto& table = bilinear_weights();
  auto at = [&src](int x, int y) -> int {
    if (x < 0 || y < 0 || x >= kPanelSize || y >= kPanelSize) return 0;
    return src[static_cast<std::size_t>(y * kPanelSize + x)];
  };
  Image dst{};
  for (int y = 0; y < kPanelSize; ++y) {
    const FixedPointWarp::Row row = warp.row(y);
    for (int x = 0; x < kPanelSize; ++x) {
      const SamplePoint p = warp.sample(row, x);
      const auto& w = table[static_cast<std::size_t>(p.weights)];
      const int sum = at(p.sx, p.sy) * w[0] + at(p.sx + 1, p.sy) * w[1] +
                      at(p.sx, p.sy + 1) * w[2] + at(p.sx + 1, p.sy + 1) * w[3];
      dst[static_cast<std::size_t>(y * kPanelSize + x)] =
          static_cast<std::uint8_t>((sum + (1 << 14)) >> 15);
    }
  }
  return dst;
}

}  // namespace rave::engine
