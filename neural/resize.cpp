#include "neural/resize.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"

namespace rave::neural {
namespace {

constexpr int kPrecisionBits = 32 - 8 - 2;  // Pillow's PRECISION_BITS for 8-bit images

double bilinear_filter(double x) {
  x = std::fabs(x);
  return x < 1.0 ? 1.0 - x : 0.0;
}

std::uint8_t clip8(std::int32_t v) {
  if (v >= (1 << kPrecisionBits << 8)) return 255;
  if (v <= 0) return 0;
  return static_cast<std::uint8_t>(v >> kPrecisionBits);
}

}  // namespace

PanelResizer::PanelResizer(int in_size, int out_size) : in_(in_size), out_(out_size) {
  RAVE_CHECK(in_size >= 1 && out_size >= 1, "resize sizes must be positive");
  precompute();
}

// Pillow 9 Resample.c, precompute_coeffs with box (0, in) and the bilinear filter (support 1):
// the filter is stretched by the scale when shrinking; bounds are rounded with (int)(x + 0.5) and
// clamped to the image; weights are normalised to sum 1 and then converted to fixed point with
// round-half-away-from-zero.
void PanelResizer::precompute() {
  const double scale = static_cast<double>(in_) / out_;
  const double filterscale = std::max(scale, 1.0);
  const double support = 1.0 * filterscale;
  ksize_ = static_cast<int>(std::ceil(support)) * 2 + 1;
  first_.assign(static_cast<std::size_t>(out_), 0);
  count_.assign(static_cast<std::size_t>(out_), 0);
  coeffs_.assign(static_cast<std::size_t>(out_) * ksize_, 0);
  std::vector<double> k(static_cast<std::size_t>(ksize_));
  for (int xx = 0; xx < out_; ++xx) {
    const double center = (xx + 0.5) * scale;
    const double ss = 1.0 / filterscale;
    const int xmin = std::max(static_cast<int>(center - support + 0.5), 0);
    const int xmax = std::min(static_cast<int>(center + support + 0.5), in_) - xmin;
    double ww = 0.0;
    for (int x = 0; x < xmax; ++x) {
      k[static_cast<std::size_t>(x)] = bilinear_filter((x + xmin - center + 0.5) * ss);
      ww += k[static_cast<std::size_t>(x)];
    }
    for (int x = 0; x < xmax; ++x) {
      const double w = ww != 0.0 ? k[static_cast<std::size_t>(x)] / ww : k[static_cast<std::size_t>(x)];
      const double fixed = w * (1 << kPrecisionBits);
      coeffs_[static_cast<std::size_t>(xx) * ksize_ + x] = static_cast<std::int32_t>(w < 0 ? fixed - 0.5 : fixed + 0.5);
    }
    first_[static_cast<std::size_t>(xx)] = xmin;
    count_[static_cast<std::size_t>(xx)] = xmax;
  }
}

// Horizontal pass into an in_ x out_ uint8 buffer, then the vertical pass (Pillow's order and
// rounding: ImagingResampleHorizontal_8bpc then ImagingResampleVertical_8bpc).
void PanelResizer::operator()(const std::uint8_t* src, std::uint8_t* dst) const {
  std::vector<std::uint8_t> mid(static_cast<std::size_t>(in_) * out_);
  for (int y = 0; y < in_; ++y) {
    const std::uint8_t* row = src + static_cast<std::size_t>(y) * in_;
    for (int xx = 0; xx < out_; ++xx) {
      const std::int32_t* k = &coeffs_[static_cast<std::size_t>(xx) * ksize_];
      const std::uint8_t* s = row + first_[static_cast<std::size_t>(xx)];
      std::int32_t acc = 1 << (kPrecisionBits - 1);
      for (int x = 0; x < count_[static_cast<std::size_t>(xx)]; ++x) acc += s[x] * k[x];
      mid[static_cast<std::size_t>(y) * out_ + xx] = clip8(acc);
    }
  }
  std::vector<std::int32_t> acc(static_cast<std::size_t>(out_));
  for (int yy = 0; yy < out_; ++yy) {
    const std::int32_t* k = &coeffs_[static_cast<std::size_t>(yy) * ksize_];
    const int y0 = first_[static_cast<std::size_t>(yy)];
    std::fill(acc.begin(), acc.end(), 1 << (kPrecisionBits - 1));
    for (int y = 0; y < count_[static_cast<std::size_t>(yy)]; ++y) {
      const std::uint8_t* row = &mid[static_cast<std::size_t>(y0 + y) * out_];
      for (int xx = 0; xx < out_; ++xx) acc[static_cast<std::size_t>(xx)] += row[xx] * k[y];
    }
    for (int xx = 0; xx < out_; ++xx) dst[static_cast<std::size_t>(yy) * out_ + xx] = clip8(acc[static_cast<std::size_t>(xx)]);
  }
}

}  // namespace rave::neural
