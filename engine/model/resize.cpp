#include "engine/model/resize.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "common/error.hpp"
#include "engine/model/internal/resize_half.hpp"

namespace rave::engine {
namespace {

constexpr int kPrecisionBits = 32 - 8 - 2;  // Pillow's PRECISION_BITS for 8-bit images

double bilinear_filter(double x) {
  x = std::fabs(x);
  return x < 1.0 ? 1.0 - x : 0.0;
}

// Pillow's clip8 (>= 2^30 -> 255, <= 0 -> 0, else v >> 22), branch-free so loops vectorize.
std::uint8_t clip8(std::int32_t v) {
  return static_cast<std::uint8_t>(std::clamp(v >> kPrecisionBits, 0, 255));
}

}  // namespace

PanelResizer::PanelResizer(int in_size, int out_size) : in_(in_size), out_(out_size) {
  RAVE_CHECK(in_size >= 1 && out_size >= 1, "resize sizes must be positive");
  precompute();
  if (in_ == 2 * out_) precompute_half();
  if (half_.empty() && in_ >= ksize_) precompute_window();  // the 2:1 case has its own kernel
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
    // Pillow's own (int)(x + 0.5), truncating toward zero (lround would move the window's
    // negative bounds and change the bytes).
    // NOLINTBEGIN(bugprone-incorrect-roundings)
    const int xmin = std::max(static_cast<int>(center - support + 0.5), 0);
    const int xmax = std::min(static_cast<int>(center + support + 0.5), in_) - xmin;
    // NOLINTEND(bugprone-incorrect-roundings)
    double ww = 0.0;
    for (int x = 0; x < xmax; ++x) {
      k[static_cast<std::size_t>(x)] = bilinear_filter((x + xmin - center + 0.5) * ss);
      ww += k[static_cast<std::size_t>(x)];
    }
    for (int x = 0; x < xmax; ++x) {
      const double w =
          ww != 0.0 ? k[static_cast<std::size_t>(x)] / ww : k[static_cast<std::size_t>(x)];
      const double fixed = w * (1 << kPrecisionBits);
      coeffs_[static_cast<std::size_t>(xx) * ksize_ + x] =
          static_cast<std::int32_t>(w < 0 ? fixed - 0.5 : fixed + 0.5);
    }
    first_[static_cast<std::size_t>(xx)] = xmin;
    count_[static_cast<std::size_t>(xx)] = xmax;
  }
}

void PanelResizer::precompute_half() {
  half_.assign(4 * static_cast<std::size_t>(out_), 0);
  for (int xx = 0; xx < out_; ++xx)
    for (int x = 0; x < count_[static_cast<std::size_t>(xx)]; ++x) {
      const int t = first_[static_cast<std::size_t>(xx)] + x - (2 * xx - 1);
      RAVE_CHECK(t >= 0 && t < 4, "2:1 Pillow window outside 2x-1 .. 2x+2");
      half_[static_cast<std::size_t>(t * out_ + xx)] =
          coeffs_[static_cast<std::size_t>(xx) * ksize_ + x];
    }
  constexpr std::int32_t kOne = 1 << (kPrecisionBits - 3), kThree = 3 * kOne;  // 1/8 and 3/8
  for (int xx = 1; xx + 1 < out_; ++xx)
    for (int t = 0; t < 4; ++t)
      RAVE_CHECK(
          half_[static_cast<std::size_t>(t * out_ + xx)] == (t == 0 || t == 3 ? kOne : kThree),
          "2:1 interior taps must be (1, 3, 3, 1) / 8");
  RAVE_CHECK(half_[0] == 0 && half_[4 * static_cast<std::size_t>(out_) - 1] == 0,
             "2:1 border taps must not read outside the panel");
  for (std::size_t t = 0; t < 4; ++t) {
    edge_taps_.first[t] = half_[t * static_cast<std::size_t>(out_)];
    edge_taps_.last[t] =
        half_[t * static_cast<std::size_t>(out_) + static_cast<std::size_t>(out_ - 1)];
  }
}

void PanelResizer::precompute_window() {
  const auto k = static_cast<std::size_t>(ksize_);
  window_first_.assign(static_cast<std::size_t>(out_), 0);
  window_.assign(static_cast<std::size_t>(out_) * k, 0);
  for (std::size_t xx = 0; xx < static_cast<std::size_t>(out_); ++xx) {
    const int start = std::min(first_[xx], in_ - ksize_);  // Pillow's window lies inside it
    window_first_[xx] = start;
    for (int x = 0; x < count_[xx]; ++x)
      window_[xx * k + static_cast<std::size_t>(first_[xx] - start + x)] =
          coeffs_[xx * k + static_cast<std::size_t>(x)];
  }
}

// The same sums as horizontal_generic (the added taps weigh 0), K taps a pixel, unrolled.
template <int K>
void PanelResizer::horizontal_window(const std::uint8_t* src, std::uint8_t* mid) const {
  const auto n = static_cast<std::size_t>(out_);
  const std::int32_t* taps = window_.data();
  const int* first = window_first_.data();
  for (int y = 0; y < in_; ++y) {
    const std::uint8_t* row = src + static_cast<std::size_t>(y) * in_;
    std::uint8_t* out = mid + static_cast<std::size_t>(y) * n;
    for (std::size_t xx = 0; xx < n; ++xx) {
      const std::int32_t* k = taps + xx * K;
      const std::uint8_t* s = row + first[xx];
      std::int32_t acc = 1 << (kPrecisionBits - 1);
      for (int t = 0; t < K; ++t) acc += s[t] * k[t];
      out[xx] = clip8(acc);
    }
  }
}

void PanelResizer::horizontal_generic(const std::uint8_t* src, std::uint8_t* mid) const {
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
}

// Exactly 2:1. Tap t of output x reads source column 2x - 1 + t. Away from the borders Pillow's
// fixed-point taps are exactly (1, 3, 3, 1) x 2^19, so clip8(2^21 + 2^19 S) = (S + 4) >> 3 with
// S <= 2040: 16-bit arithmetic. The row is read as 16-bit pairs (columns 2i, 2i+1), so every tap is
// a byte of a contiguous array and the loop vectorises. The first and last outputs keep Pillow's
// renormalised 32-bit taps.
void PanelResizer::horizontal_half(const std::uint8_t* src, std::uint8_t* mid) const {
  const std::size_t n = static_cast<std::size_t>(out_);
  constexpr bool kLittle = std::endian::native == std::endian::little;
  const auto first = [](std::uint16_t v) { return kLittle ? (v & 0xFF) : (v >> 8); };  // column 2i
  const auto second = [](std::uint16_t v) {
    return kLittle ? (v >> 8) : (v & 0xFF);
  };  // column 2i + 1
  std::vector<std::uint16_t> pairs(n);
  for (int y = 0; y < in_; ++y) {
    const std::uint8_t* row = src + static_cast<std::size_t>(y) * in_;
    std::memcpy(pairs.data(), row, 2 * n);
    std::uint8_t* out = mid + static_cast<std::size_t>(y) * n;
    for (std::size_t x = 1; x + 1 < n; ++x)
      out[x] = static_cast<std::uint8_t>((second(pairs[x - 1]) +
                                          3 * (first(pairs[x]) + second(pairs[x])) +
                                          first(pairs[x + 1]) + 4) >>
                                         3);
    for (std::size_t x : {std::size_t{0}, n - 1}) {
      std::int32_t acc = 1 << (kPrecisionBits - 1);
      for (int t = 0; t < 4; ++t) {
        const long j = 2 * static_cast<long>(x) - 1 + t;
        if (j >= 0 && j < in_) acc += row[j] * half_[static_cast<std::size_t>(t) * n + x];
      }
      out[x] = clip8(acc);
    }
  }
}

// Output row yy of the vertical pass with Pillow's 32-bit taps (`acc`: out_ sums of scratch). The
// tap and the width are locals, so that the compiler, which cannot tell `acc` from the taps or
// this object, still vectorises the row (it re-read both on every pixel: 164 us a 224 px panel).
void PanelResizer::vertical_row(const std::uint8_t* mid, std::uint8_t* dst, int yy,
                                std::int32_t* acc) const {
  const auto n = static_cast<std::size_t>(out_);
  const std::int32_t* k = &coeffs_[static_cast<std::size_t>(yy) * ksize_];
  const int y0 = first_[static_cast<std::size_t>(yy)];
  const int taps = count_[static_cast<std::size_t>(yy)];
  std::fill(acc, acc + n, 1 << (kPrecisionBits - 1));
  for (int y = 0; y < taps; ++y) {
    const std::int32_t w = k[y];
    const std::uint8_t* row = mid + static_cast<std::size_t>(y0 + y) * n;
    for (std::size_t xx = 0; xx < n; ++xx) acc[xx] += row[xx] * w;
  }
  std::uint8_t* out = dst + static_cast<std::size_t>(yy) * n;
  for (std::size_t xx = 0; xx < n; ++xx) out[xx] = clip8(acc[xx]);
}

// Horizontal pass into an in_ x out_ uint8 buffer, then the vertical pass (Pillow's order and
// rounding: ImagingResampleHorizontal_8bpc then ImagingResampleVertical_8bpc). The 2:1 case runs
// the SSE2 kernel of internal/resize_half.hpp where it fits, else its interior rows with the
// (1, 3, 3, 1) / 8 integer form, as horizontal_half.
void PanelResizer::operator()(const std::uint8_t* src, std::uint8_t* dst) const {
  if (!half_.empty() && internal::half_kernel_fits(out_)) {
    internal::resize_half(src, dst, out_, edge_taps_);
    return;
  }
  std::vector<std::uint8_t> mid(static_cast<std::size_t>(in_) * out_);
  std::vector<std::int32_t> acc(static_cast<std::size_t>(out_));
  if (half_.empty()) {
    if (ksize_ == 3 && !window_.empty())  // enlarging: Pillow's bilinear reads 2 or 3 pixels
      horizontal_window<3>(src, mid.data());
    else
      horizontal_generic(src, mid.data());
    for (int yy = 0; yy < out_; ++yy) vertical_row(mid.data(), dst, yy, acc.data());
    return;
  }
  horizontal_half(src, mid.data());
  const std::size_t n = static_cast<std::size_t>(out_);
  for (std::size_t yy = 1; yy + 1 < n; ++yy) {
    const std::uint8_t* r = &mid[(2 * yy - 1) * n];  // rows 2yy-1 .. 2yy+2
    std::uint8_t* out = dst + yy * n;
    for (std::size_t x = 0; x < n; ++x)
      out[x] =
          static_cast<std::uint8_t>((r[x] + 3 * (r[n + x] + r[2 * n + x]) + r[3 * n + x] + 4) >> 3);
  }
  vertical_row(mid.data(), dst, 0, acc.data());
  vertical_row(mid.data(), dst, out_ - 1, acc.data());
}

}  // namespace rave::engine
