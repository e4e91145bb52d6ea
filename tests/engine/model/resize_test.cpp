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
#include "engine/model/image.hpp"
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
// vectorised paths must give exactly these bytes.
std::vector<std::uint8_t> pillow_resize(const std::vector<std::uint8_t>& in, int n, int m) {
  struct Axis {
    std::vector<int> first, count;
    std::vector<std::int32_t> k;  // m x ksize
    int ksize;
  };
  const double scale = double(n) / m, filterscale = std::max(scale, 1.0), support = filterscale;
  Axis ax{{}, {}, {}, int(std::ceil(support)) * 2 + 1};
  for (int xx = 0; xx < m; ++xx) {
    const double center = (xx + 0.5) * scale;
    const int xmin = std::max(int(center - support + 0.5), 0);
    const int xmax = std::min(int(center + support + 0.5), n) - xmin;
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

}  // namespace
}  // namespace rave::engine
