// engine::PanelResizer: Pillow's bilinear resize (160 -> 80 the 4-tap triangle, any other size
// Pillow's Resample.c transcribed), on a random panel and a rendered one.
#include "engine/model/resize.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "common/random.hpp"
#include "engine/generate.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/image.hpp"
#include "engine/model/internal/resize_half.hpp"
#include "engine/render/render.hpp"

namespace rave::engine {
namespace {

// Two 160x160 panels: uniform noise (every pixel independent) and a drawn 3x3Grid panel.
std::vector<std::vector<std::uint8_t>> test_panels() {
  Rng rng(4);
  std::vector<std::uint8_t> noise(kPanelPixels);
  for (auto& v : noise) v = static_cast<std::uint8_t>(rng.below(256));
  const Problem p = generate_problem(ConfigId::kDistributeNine, AnswerStrategy::kRaven, 1234, 3);
  const Image drawn = render_panel(p.config, p.context[0]);
  return {noise, std::vector<std::uint8_t>(drawn.begin(), drawn.end())};
}

// Pillow's 160 -> 80 is the separable [1,3,3,1]/8 filter (renormalised at the borders), each
// pass rounded to uint8 (docs/neural-reference.md): a direct double-precision version of that.
std::vector<std::uint8_t> triangle_downscale(const std::vector<std::uint8_t>& in) {
  const double w[4] = {1, 3, 3, 1};
  const auto filter = [&](auto&& at, int i) {
    double sum = 0, weight = 0;
    for (int t = 0; t < 4; ++t) {
      const int j = 2 * i - 1 + t;
      if (j < 0 || j >= 160) continue;
      sum += w[t] * at(j);
      weight += w[t];
    }
    return std::floor(sum / weight + 0.5);
  };
  std::vector<double> h(160 * 80);  // horizontal pass: 160 rows of 80
  for (int y = 0; y < 160; ++y)
    for (int i = 0; i < 80; ++i)
      h[static_cast<std::size_t>(y * 80 + i)] =
          filter([&](int j) { return double(in[static_cast<std::size_t>(y * 160 + j)]); }, i);
  std::vector<std::uint8_t> out(80 * 80);
  for (int x = 0; x < 80; ++x)
    for (int i = 0; i < 80; ++i)
      out[static_cast<std::size_t>(i * 80 + x)] = static_cast<std::uint8_t>(
          filter([&](int j) { return h[static_cast<std::size_t>(j * 80 + x)]; }, i));
  return out;
}

TEST(ResizeTest, DownscaleIsTheFourTapTriangle) {
  for (const auto& in : test_panels()) {
    std::vector<std::uint8_t> out(80 * 80);
    PanelResizer(160, 80)(in.data(), out.data());
    const auto expect = triangle_downscale(in);
    int max_diff = 0;
    for (std::size_t i = 0; i < out.size(); ++i)
      max_diff = std::max(max_diff, std::abs(int(out[i]) - int(expect[i])));
    EXPECT_LE(max_diff, 1);  // fixed point vs double rounding
  }
}

// A plain transcription of Pillow 9's Resample.c for 8-bit images (precompute_coeffs with the
// bilinear filter, normalize_coeffs_8bpc, horizontal then vertical pass with clip8): the resizer's
// vectorised paths must give exactly these bytes. Pillow's coefficients of one axis from n to m
// pixels: first source, count, ksize taps each.
struct Axis {
  std::vector<int> first, count;
  std::vector<std::int32_t> k;  // m x ksize
  int ksize;
};

Axis pillow_axis(int n, int m) {
  const double scale = double(n) / m, filterscale = std::max(scale, 1.0), support = filterscale;
  Axis ax{{}, {}, {}, int(std::ceil(support)) * 2 + 1};
  for (int xx = 0; xx < m; ++xx) {
    const double center = (xx + 0.5) * scale;
    // Pillow's own rounding, (int)(x + 0.5), is what the transcription must reproduce.
    // NOLINTNEXTLINE(bugprone-incorrect-roundings)
    const int xmin = std::max(static_cast<int>(center - support + 0.5), 0);
    // NOLINTNEXTLINE(bugprone-incorrect-roundings)
    const int xmax = std::min(static_cast<int>(center + support + 0.5), n) - xmin;
    std::vector<double> w(static_cast<std::size_t>(xmax));
    double ww = 0;
    for (int x = 0; x < xmax; ++x)
      ww += w[static_cast<std::size_t>(x)] =
          std::max(0.0, 1.0 - std::fabs((x + xmin - center + 0.5) / filterscale));
    for (int x = 0; x < ax.ksize; ++x) {
      const double v = x < xmax ? w[static_cast<std::size_t>(x)] / ww * (1 << 22) : 0.0;
      ax.k.push_back(static_cast<std::int32_t>(v < 0 ? v - 0.5 : v + 0.5));
    }
    ax.first.push_back(xmin);
    ax.count.push_back(xmax);
  }
  return ax;
}

// Pillow's resize of an n x n panel to m x m.
std::vector<std::uint8_t> pillow_resize(const std::vector<std::uint8_t>& in, int n, int m) {
  const Axis ax = pillow_axis(n, m);
  const auto clip = [](std::int64_t v) {
    return std::uint8_t(v <= 0 ? 0 : v >= (std::int64_t(1) << 30) ? 255 : v >> 22);
  };
  std::vector<std::uint8_t> mid(static_cast<std::size_t>(n * m)),
      out(static_cast<std::size_t>(m * m));
  for (int y = 0; y < n; ++y)
    for (int xx = 0; xx < m; ++xx) {
      std::int64_t ss = 1 << 21;
      for (int x = 0; x < ax.count[xx]; ++x)
        ss += in[static_cast<std::size_t>(y * n + ax.first[xx] + x)] *
              std::int64_t(ax.k[static_cast<std::size_t>(xx * ax.ksize + x)]);
      mid[static_cast<std::size_t>(y * m + xx)] = clip(ss);
    }
  for (int yy = 0; yy < m; ++yy)
    for (int xx = 0; xx < m; ++xx) {
      std::int64_t ss = 1 << 21;
      for (int y = 0; y < ax.count[yy]; ++y)
        ss += mid[static_cast<std::size_t>((ax.first[yy] + y) * m + xx)] *
              std::int64_t(ax.k[static_cast<std::size_t>(yy * ax.ksize + y)]);
      out[static_cast<std::size_t>(yy * m + xx)] = clip(ss);
    }
  return out;
}

TEST(ResizeTest, BytesOfPillowsAlgorithm) {
  for (const auto& in : test_panels()) {
    for (int side : {80, 224, 37, 160}) {
      std::vector<std::uint8_t> out(static_cast<std::size_t>(side * side));
      PanelResizer(160, side)(in.data(), out.data());
      EXPECT_EQ(out, pillow_resize(in, 160, side)) << side;
    }
  }
}

TEST(ResizeTest, ConstantPanelsStayConstant) {
  for (int side : {80, 224, 160, 37}) {
    const std::vector<std::uint8_t> in(160 * 160, 201);
    std::vector<std::uint8_t> out(static_cast<std::size_t>(side * side));
    PanelResizer(160, side)(in.data(), out.data());
    EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](auto v) { return v == 201; })) << side;
  }
}

// White panels with random rectangles of random grey, lines and single pixels placed on and around
// the 32-column blocks of the 2:1 kernel and the panel's borders: white-block skipping must never
// drop a pixel that reaches an output.
std::vector<std::uint8_t> blocky_panel(Rng& rng, int n) {
  std::vector<std::uint8_t> p(static_cast<std::size_t>(n * n), 255);
  const auto at = [&](int y, int x) -> std::uint8_t& {
    return p[static_cast<std::size_t>(y * n + x)];
  };
  for (int k = rng.below(6); k > 0; --k) {  // rectangles
    const int y = rng.below(n), x = rng.below(n), h = 1 + rng.below(n / 3),
              w = 1 + rng.below(n / 3);
    const auto v = static_cast<std::uint8_t>(rng.below(256));
    for (int i = y; i < std::min(n, y + h); ++i)
      for (int j = x; j < std::min(n, x + w); ++j) at(i, j) = v;
  }
  for (int k = rng.below(40); k > 0; --k) {  // single pixels near block edges and borders
    const int col = std::clamp(32 * rng.below(n / 32 + 1) + rng.below(5) - 2, 0, n - 1);
    const int row = rng.below(n);
    at(rng.below(2) ? row : col, rng.below(2) ? col : row) =
        static_cast<std::uint8_t>(rng.below(255));
  }
  return p;
}

// `in` (n x n) through the 2:1 kernel `kernel`, with the border taps of the transcription above.
std::vector<std::uint8_t> half_kernel(const std::vector<std::uint8_t>& in, int n,
                                      internal::HalfKernel kernel) {
  const Axis ax = pillow_axis(n, n / 2);
  const auto k = [&](int xx, int x) { return ax.k[static_cast<std::size_t>(xx * ax.ksize + x)]; };
  const int last = n / 2 - 1;
  const internal::HalfTaps taps{.first = {0, k(0, 0), k(0, 1), k(0, 2)},
                                .last = {k(last, 0), k(last, 1), k(last, 2), 0}};
  std::vector<std::uint8_t> out(static_cast<std::size_t>(n * n / 4));
  internal::resize_half(in.data(), out.data(), n / 2, taps, kernel);
  return out;
}

// Every panel of 12 problems of each configuration and strategy, and 150 blocky panels of each of
// five sizes, through `kernel` and through PanelResizer, against the transcription.
void check_half_kernel(internal::HalfKernel kernel) {
  int panels = 0;
  for (const Configuration& c : all_configurations())
    for (AnswerStrategy a :
         {AnswerStrategy::kRaven, AnswerStrategy::kIRaven, AnswerStrategy::kFair})
      for (std::uint64_t k = 0; k < 12; ++k)
        for (const Image& img : render_problem(generate_problem(c.id, a, 77, k))) {
          const std::vector<std::uint8_t> in(img.begin(), img.end());
          ASSERT_EQ(half_kernel(in, 160, kernel), pillow_resize(in, 160, 80))
              << c.folder << " problem " << k;
          ++panels;
        }
  EXPECT_EQ(panels, 7 * 3 * 12 * 16);
  Rng rng(11);
  for (int n : {64, 96, 160, 224, 320})
    for (int trial = 0; trial < 150; ++trial) {
      const auto in = blocky_panel(rng, n);
      const auto expect = pillow_resize(in, n, n / 2);
      ASSERT_EQ(half_kernel(in, n, kernel), expect) << n << " trial " << trial;
      std::vector<std::uint8_t> out(expect.size());
      PanelResizer(n, n / 2)(in.data(), out.data());
      ASSERT_EQ(out, expect) << n << " trial " << trial;
    }
}

// The 2:1 kernels (SSE2 and, where the CPU has it, AVX2, both skipping white blocks) give Pillow's
// bytes on every panel of problems of every configuration and answer strategy, and on adversarial
// panels of several sizes.
TEST(ResizeTest, HalfKernelsArePillowOnManyPanels) {
  int kernels = 0;
  for (internal::HalfKernel k : {internal::HalfKernel::kSse2, internal::HalfKernel::kAvx2}) {
    if (!internal::half_kernel_available(k)) continue;
    SCOPED_TRACE(k == internal::HalfKernel::kSse2 ? "SSE2" : "AVX2");
    check_half_kernel(k);
    ++kernels;
  }
#ifdef __SSE2__
  EXPECT_GE(kernels, 1);
#endif
}

}  // namespace
}  // namespace rave::engine
