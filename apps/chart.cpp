#include "apps/chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <span>
#include <string_view>

#include "apps/chart_font.hpp"
#include "engine/formats/png.hpp"

namespace rave::apps {
namespace {

constexpr int kWidth = 900, kLeft = 80, kRight = 24, kBottom = 64;
constexpr int kPlotW = kWidth - kLeft - kRight, kPlotH = 400;
constexpr int kLegendRow = 22, kLegendTop = 44;

/// How a series is drawn: gray level, dash pattern (0 = solid) and thickness.
struct Style {
  std::uint8_t gray;
  int dash_on, dash_off, thickness;
};
constexpr Style kStyles[] = {{0, 0, 0, 2},    {0, 9, 6, 2},   {120, 0, 0, 3},   {120, 9, 6, 3},
                             {0, 2, 4, 2},    {170, 0, 0, 4}, {60, 14, 4, 2},   {170, 6, 6, 4}};
const Style& style(std::size_t i) { return kStyles[i % std::size(kStyles)]; }

class Canvas {
 public:
  explicit Canvas(int height) : height_(height), pixels_(static_cast<std::size_t>(kWidth) * height, 255) {}
  int height() const { return height_; }
  void set(int x, int y, std::uint8_t v) {
    if (x >= 0 && y >= 0 && x < kWidth && y < height_) pixels_[static_cast<std::size_t>(y) * kWidth + x] = v;
  }
  void fill(int x0, int y0, int x1, int y1, std::uint8_t v) {
    for (int y = std::min(y0, y1); y <= std::max(y0, y1); ++y)
      for (int x = std::min(x0, x1); x <= std::max(x0, x1); ++x) set(x, y, v);
  }
  void frame(int x0, int y0, int x1, int y1, std::uint8_t v) {
    line(x0, y0, x1, y0, {v, 0, 0, 1});
    line(x1, y0, x1, y1, {v, 0, 0, 1});
    line(x1, y1, x0, y1, {v, 0, 0, 1});
    line(x0, y1, x0, y0, {v, 0, 0, 1});
  }
  // Bresenham with a square pen and a dash pattern counted along the major axis.
  void line(int x0, int y0, int x1, int y1, const Style& s) {
    const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
    const int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
    int err = dx + dy;
    for (int step = 0;; ++step) {
      if (s.dash_on == 0 || (dash_phase_ + step) % (s.dash_on + s.dash_off) < s.dash_on)
        fill(x0 - s.thickness / 2, y0 - s.thickness / 2, x0 + (s.thickness - 1) / 2, y0 + (s.thickness - 1) / 2, s.gray);
      if (x0 == x1 && y0 == y1) {
        dash_phase_ += step;
        return;
      }
      const int e2 = 2 * err;
      if (e2 >= dy) err += dy, x0 += sx;
      if (e2 <= dx) err += dx, y0 += sy;
    }
  }
  void reset_dash() { dash_phase_ = 0; }
  void text(int x, int y, std::string_view s, int scale = 2, std::uint8_t v = 0) {
    for (char c : s) {
      const auto& rows = glyph_rows(c);
      for (int r = 0; r < kGlyphHeight; ++r)
        for (int col = 0; col < kGlyphWidth; ++col)
          if (rows[static_cast<std::size_t>(r)] & (0x10 >> col))
            fill(x + col * scale, y + r * scale, x + col * scale + scale - 1, y + r * scale + scale - 1, v);
      x += (kGlyphWidth + 1) * scale;
    }
  }
  static int text_width(std::string_view s, int scale = 2) {
    return static_cast<int>(s.size()) * (kGlyphWidth + 1) * scale - scale;
  }
  std::string png() const { return engine::encode_gray_png(pixels_, kWidth, height_); }

 private:
  int height_;
  std::vector<std::uint8_t> pixels_;
  int dash_phase_ = 0;
};

// A 1-2-5 step giving about `count` intervals over `range`.
double nice_step(double range, int count) {
  const double raw = range / count;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double f : {1.0, 2.0, 5.0, 10.0})
    if (f * mag >= raw) return f * mag;
  return 10 * mag;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", std::abs(v) < 1e-12 ? 0.0 : v);
  return buf;
}

struct Axes {
  double y_min, y_max;
  int top = 0;  ///< first pixel row of the plot (below title and legend)
  int y_of(double v) const { return top + kPlotH - static_cast<int>(std::lround((v - y_min) / (y_max - y_min) * kPlotH)); }
};

// The legend is a strip of items (style sample + name) between the title and the plot, wrapped
// into rows; returns the x, y of each item's left edge and centre line.
std::vector<std::pair<int, int>> legend_layout(const std::vector<Series>& series) {
  std::vector<std::pair<int, int>> at;
  int x = kLeft, y = kLegendTop + kLegendRow / 2;
  for (const auto& s : series) {
    const int w = 52 + Canvas::text_width(s.name) + 24;
    if (x != kLeft && x + w > kLeft + kPlotW) x = kLeft, y += kLegendRow;
    at.emplace_back(x, y);
    x += w;
  }
  return at;
}

// The plot's top row: below the title, the legend rows and the y label.
int plot_top(const std::vector<std::pair<int, int>>& legend) {
  const int legend_bottom = legend.empty() ? kLegendTop : legend.back().second + kLegendRow / 2;
  return legend_bottom + 30;
}

void draw_legend(Canvas& c, const std::vector<Series>& series, const std::vector<std::pair<int, int>>& at,
                 std::span<const std::uint8_t> shades) {
  for (std::size_t i = 0; i < series.size(); ++i) {
    const auto [x, y] = at[i];
    if (!shades.empty()) {
      c.fill(x, y - 6, x + 36, y + 6, shades[i]);
      c.frame(x, y - 6, x + 36, y + 6, 0);
    } else {
      c.reset_dash();
      c.line(x, y, x + 40, y, style(i));
    }
    c.text(x + 52, y - 7, series[i].name);
  }
}

Axes fit_axes(const ChartLabels& l, const std::vector<Series>& series, int top) {
  if (l.y_max > l.y_min) return {l.y_min, l.y_max, top};
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& s : series)
    for (double v : s.y)
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (!std::isfinite(lo)) return {0, 1, top};
  if (hi - lo < 1e-9) hi = lo + 1;
  const double step = nice_step(hi - lo, 5);
  return {std::floor(lo / step) * step, std::ceil(hi / step) * step, top};
}

// Frame, title, axis labels, horizontal grid with y tick labels, optional reference line.
void draw_frame(Canvas& c, const ChartLabels& l, const Axes& a) {
  int scale = 3;  // the largest glyph scale at which the title fits the width
  while (scale > 1 && Canvas::text_width(l.title, scale) > kWidth - 16) --scale;
  c.text(std::max(8, (kWidth - Canvas::text_width(l.title, scale)) / 2), 12, l.title, scale);
  c.text(8, a.top - 22, l.y_label, 2);
  c.text(kLeft + (kPlotW - Canvas::text_width(l.x_label)) / 2, c.height() - 24, l.x_label, 2);
  const double step = nice_step(a.y_max - a.y_min, 5);
  for (double v = a.y_min; v <= a.y_max + step * 1e-6; v += step) {
    const int y = a.y_of(v);
    c.line(kLeft, y, kLeft + kPlotW, y, {225, 0, 0, 1});
    const std::string t = number(v);
    c.text(kLeft - 8 - Canvas::text_width(t), y - 7, t);
  }
  if (l.reference >= a.y_min && l.reference <= a.y_max) {
    c.reset_dash();
    c.line(kLeft, a.y_of(l.reference), kLeft + kPlotW, a.y_of(l.reference), {90, 3, 5, 1});
  }
  c.frame(kLeft, a.top, kLeft + kPlotW, a.top + kPlotH, 0);
}

}  // namespace

std::string line_chart_png(const ChartLabels& labels, const std::vector<Series>& series) {
  const auto legend = legend_layout(series);
  const Axes a = fit_axes(labels, series, plot_top(legend));
  Canvas c(a.top + kPlotH + kBottom);
  draw_frame(c, labels, a);
  std::size_t n = 1;
  for (const auto& s : series) n = std::max(n, s.y.size());
  const auto x_of = [&](std::size_t i) {  // i is 0-based, x = i + 1
    return kLeft + (n == 1 ? kPlotW / 2 : static_cast<int>(std::lround(static_cast<double>(i) / static_cast<double>(n - 1) * kPlotW)));
  };
  const double step = std::max(1.0, nice_step(static_cast<double>(n), 8));
  for (double x = 1; x <= static_cast<double>(n) + 1e-9; x += step) {
    const std::string t = number(x);
    c.text(x_of(static_cast<std::size_t>(x) - 1) - Canvas::text_width(t) / 2, a.top + kPlotH + 8, t);
  }
  for (std::size_t s = 0; s < series.size(); ++s) {
    c.reset_dash();
    const auto& y = series[s].y;
    for (std::size_t i = 0; i + 1 < y.size(); ++i)
      if (std::isfinite(y[i]) && std::isfinite(y[i + 1])) c.line(x_of(i), a.y_of(y[i]), x_of(i + 1), a.y_of(y[i + 1]), style(s));
    if (y.size() <= 40)
      for (std::size_t i = 0; i < y.size(); ++i)
        if (std::isfinite(y[i])) c.fill(x_of(i) - 2, a.y_of(y[i]) - 2, x_of(i) + 2, a.y_of(y[i]) + 2, style(s).gray);
  }
  draw_legend(c, series, legend, {});
  return c.png();
}

std::string bar_chart_png(const ChartLabels& labels, const std::vector<std::string>& categories,
                          const std::vector<Series>& series) {
  const auto legend = legend_layout(series);
  const Axes a = fit_axes(labels, series, plot_top(legend));
  Canvas c(a.top + kPlotH + kBottom);
  draw_frame(c, labels, a);
  std::vector<std::uint8_t> shades;
  for (std::size_t s = 0; s < series.size(); ++s)
    shades.push_back(static_cast<std::uint8_t>(series.size() == 1 ? 90 : 20 + 200 * s / (series.size() - 1)));
  const int group = kPlotW / std::max<int>(1, static_cast<int>(categories.size()));
  const int bar = std::max(2, group * 8 / 10 / std::max<int>(1, static_cast<int>(series.size())));
  const int bottom = a.top + kPlotH;
  for (std::size_t k = 0; k < categories.size(); ++k) {
    const int gx = kLeft + static_cast<int>(k) * group;
    c.text(gx + (group - Canvas::text_width(categories[k])) / 2, bottom + 8, categories[k]);
    for (std::size_t s = 0; s < series.size(); ++s) {
      if (k >= series[s].y.size() || !std::isfinite(series[s].y[k])) continue;
      const int x0 = gx + group / 10 + static_cast<int>(s) * bar;
      const int y = std::clamp(a.y_of(series[s].y[k]), a.top, bottom);
      c.fill(x0, y, x0 + bar - 2, bottom, shades[s]);
      c.frame(x0, y, x0 + bar - 2, bottom, 0);
    }
  }
  draw_legend(c, series, legend, shades);
  return c.png();
}

}  // namespace rave::apps
