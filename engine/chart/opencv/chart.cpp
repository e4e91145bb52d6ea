// The OpenCV charts of engine/chart/chart.hpp, compiled into the drawing module librave_opencv.so
// (the one target that links OpenCV) and exported as its `rave_chart_module` table.
#include "engine/chart/internal/chart_module.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/error.hpp"
#include "engine/chart/chart.hpp"

namespace rave::engine::opencv {
namespace {

constexpr int kWidth = 1000, kLeft = 96, kRight = 32, kPlotW = kWidth - kLeft - kRight,
              kPlotH = 420;
constexpr int kLegendRow = 26, kBottom = 84, kMinBar = 3;
const cv::Scalar kWhite(255), kInk(0), kGrid(225), kReference(100);

/// How series i is drawn: its gray level, hatching over bars, and a line's dash (0: solid).
struct Style {
  int gray;
  bool hatched;
  int dash;
};
constexpr Style kStyles[] = {{40, false, 0},  {150, false, 9}, {210, false, 3}, {255, true, 14},
                             {100, false, 5}, {240, true, 0},  {180, true, 7},  {70, true, 11}};
const Style& style(std::size_t i) { return kStyles[i % std::size(kStyles)]; }
cv::Scalar shade(std::size_t i) { return cv::Scalar(style(i).gray); }

struct Font {
  int face;
  double scale;
  int thickness;
};
const Font kTitle{cv::FONT_HERSHEY_DUPLEX, 0.75, 1}, kLabel{cv::FONT_HERSHEY_SIMPLEX, 0.55, 1},
    kTick{cv::FONT_HERSHEY_SIMPLEX, 0.48, 1};

enum class Align { kLeft, kCenter, kRight };

int text_width(const std::string& s, const Font& f) {
  int baseline = 0;
  return cv::getTextSize(s, f.face, f.scale, f.thickness, &baseline).width;
}

// `y` is the baseline; `x` the left end, the centre or the right end.
void put_text(cv::Mat& img, const std::string& s, int x, int y, const Font& f, Align a,
              const cv::Scalar& c = kInk) {
  const int w = text_width(s, f);
  const int left = a == Align::kLeft ? x : a == Align::kCenter ? x - w / 2 : x - w;
  cv::putText(img, s, {left, y}, f.face, f.scale, c, f.thickness, cv::LINE_AA);
}

// Text read bottom to top, centred on `centre`: drawn on a strip and turned a quarter.
void put_upright_text(cv::Mat& img, const std::string& s, cv::Point centre, const Font& f) {
  int baseline = 0;
  const cv::Size size = cv::getTextSize(s, f.face, f.scale, f.thickness, &baseline);
  cv::Mat strip(size.height + baseline + 4, size.width + 4, CV_8UC1, kWhite);
  cv::putText(strip, s, {2, size.height + 2}, f.face, f.scale, kInk, f.thickness, cv::LINE_AA);
  cv::Mat turned;
  cv::rotate(strip, turned, cv::ROTATE_90_COUNTERCLOCKWISE);
  cv::Rect at(centre.x - turned.cols / 2, centre.y - turned.rows / 2, turned.cols, turned.rows);
  at &= cv::Rect(0, 0, img.cols, img.rows);
  turned(cv::Rect(0, 0, at.width, at.height)).copyTo(img(at));
}

// A 1-2-5 step giving about `count` intervals over `range`.
double nice_step(double range, int count) {
  const double raw = range / count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double f : {1.0, 2.0, 5.0, 10.0})
    if (f * magnitude >= raw * (1 - 1e-9)) return f * magnitude;
  return 10 * magnitude;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", std::abs(v) < 1e-12 ? 0.0 : v);
  return buf;
}

struct Axes {
  double lo = 0, hi = 1;
  int top = 0;  ///< first pixel row of the plot
  int bottom() const { return top + kPlotH; }
  int y_of(double v) const {
    return bottom() - static_cast<int>(std::lround((v - lo) / (hi - lo) * kPlotH));
  }
};

Axes fit_axes(const ChartLabels& l, const std::vector<Series>& series, int top) {
  if (l.y_max > l.y_min) return {l.y_min, l.y_max, top};
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const auto& s : series)
    for (std::size_t i = 0; i < s.y.size(); ++i) {
      const double e = i < s.error.size() && std::isfinite(s.error[i]) ? s.error[i] : 0.0;
      if (std::isfinite(s.y[i])) lo = std::min(lo, s.y[i] - e), hi = std::max(hi, s.y[i] + e);
    }
  if (!std::isfinite(lo)) return {0, 1, top};
  if (hi - lo < 1e-9) hi = lo + 1;
  const double step = nice_step(hi - lo, 5);
  return {std::floor(lo / step) * step, std::ceil(hi / step) * step, top};
}

// Legend items (swatch and name) in rows below the title; returns each item's left x and centre y.
std::vector<cv::Point> legend_layout(const std::vector<Series>& series) {
  std::vector<cv::Point> at;
  int x = kLeft, y = 62;
  for (const auto& s : series) {
    const int w = 34 + text_width(s.name, kLabel) + 26;
    if (x != kLeft && x + w > kLeft + kPlotW) x = kLeft, y += kLegendRow;
    at.emplace_back(x, y);
    x += w;
  }
  return at;
}

int plot_top(const std::vector<cv::Point>& legend) {
  return (legend.empty() ? 50 : legend.back().y) + 28;
}

// A bar (or legend swatch) in series i's style: its gray, hatching, a black outline.
void draw_box(cv::Mat& img, const cv::Rect& box, std::size_t i) {
  cv::rectangle(img, box, shade(i), cv::FILLED);
  if (style(i).hatched) {
    cv::Mat area = img(box & cv::Rect(0, 0, img.cols, img.rows));
    for (int d = -area.rows; d < area.cols; d += 6)
      cv::line(area, {d, area.rows}, {d + area.rows, 0}, kInk, 1, cv::LINE_AA);
  }
  cv::rectangle(img, box, kInk, 1);
}

// Lines keep the series' gray up to a mid gray, so light series stay visible on white.
cv::Scalar line_shade(std::size_t i) { return cv::Scalar(std::min(style(i).gray, 140)); }

// A segment in series i's line style: solid, or `dash` pixels on and 5 off, the pattern carried
// along the polyline by `phase`.
void draw_segment(cv::Mat& img, cv::Point2d a, cv::Point2d b, std::size_t i, double& phase) {
  const double on = style(i).dash, period = on + 5, length = std::hypot(b.x - a.x, b.y - a.y);
  const auto at = [&](double t) { return a + (b - a) * (t / length); };
  if (on == 0 || length == 0) {
    cv::line(img, a, b, line_shade(i), 2, cv::LINE_AA);
    return;
  }
  for (double t = 0; t < length;) {
    const double into = std::fmod(phase + t, period);
    const double step = std::min(length - t, (into < on ? on : period) - into);
    if (into < on) cv::line(img, at(t), at(t + step), line_shade(i), 2, cv::LINE_AA);
    t += step;
  }
  phase += length;
}

void draw_legend(cv::Mat& img, const std::vector<Series>& series, const std::vector<cv::Point>& at,
                 bool bars) {
  for (std::size_t i = 0; i < series.size(); ++i) {
    const cv::Point p = at[i];
    double phase = 0;
    if (bars)
      draw_box(img, cv::Rect(p.x, p.y - 8, 24, 16), i);
    else
      draw_segment(img, cv::Point2d(p.x, p.y), cv::Point2d(p.x + 24, p.y), i, phase);
    put_text(img, series[i].name, p.x + 34, p.y + 6, kLabel, Align::kLeft);
  }
}

void draw_dashed(cv::Mat& img, int y, int x0, int x1) {
  for (int x = x0; x < x1; x += 12)
    cv::line(img, {x, y}, {std::min(x + 7, x1), y}, kReference, 1, cv::LINE_AA);
}

// Title, y grid with tick labels, axis labels, the reference line and the frame.
void draw_frame(cv::Mat& img, const ChartLabels& l, const Axes& a) {
  Font title = kTitle;
  while (title.scale > 0.4 && text_width(l.title, title) > kWidth - 20) title.scale -= 0.05;
  put_text(img, l.title, kWidth / 2, 34, title, Align::kCenter);
  const double step = nice_step(a.hi - a.lo, 5);
  for (double v = a.lo; v <= a.hi + step * 1e-6; v += step) {
    cv::line(img, {kLeft, a.y_of(v)}, {kLeft + kPlotW, a.y_of(v)}, kGrid, 1);
    put_text(img, number(v), kLeft - 8, a.y_of(v) + 5, kTick, Align::kRight);
  }
  put_upright_text(img, l.y_label, {24, a.top + kPlotH / 2}, kLabel);
  put_text(img, l.x_label, kLeft + kPlotW / 2, img.rows - 16, kLabel, Align::kCenter);
  cv::rectangle(img, cv::Rect(kLeft, a.top, kPlotW + 1, kPlotH + 1), kInk, 1);
}

// The reference line, dashed over the data, its label on a white patch at the left end.
void draw_reference(cv::Mat& img, const ChartLabels& l, const Axes& a) {
  if (l.reference < a.lo || l.reference > a.hi) return;
  const int y = a.y_of(l.reference);
  draw_dashed(img, y, kLeft, kLeft + kPlotW);
  if (l.reference_label.empty()) return;
  const int w = text_width(l.reference_label, kTick);
  cv::rectangle(img, cv::Rect(kLeft + 4, y - 19, w + 8, 15), kWhite, cv::FILLED);
  put_text(img, l.reference_label, kLeft + 8, y - 7, kTick, Align::kLeft, kReference);
}

GrayImage picture(const cv::Mat& img) {
  RAVE_CHECK(img.type() == CV_8UC1 && img.isContinuous(), "a chart is one continuous 8-bit plane");
  return GrayImage{img.cols, img.rows, std::vector<std::uint8_t>(img.data, img.data + img.total())};
}

// Whiskers from y - e to y + e with caps, in black, and in white where they cross a dark bar whose
// top is at pixel row `bar_top` (a line chart passes the plot's bottom).
void draw_error_bar(cv::Mat& img, const Axes& a, int x, double from, double to, int cap,
                    int bar_top, bool dark) {
  const int low = std::clamp(a.y_of(from), a.top, a.bottom()),
            high = std::clamp(a.y_of(to), a.top, a.bottom());
  const auto ink_at = [&](int row) { return dark && row > bar_top ? kWhite : kInk; };
  const int split = std::clamp(bar_top, high, low);
  cv::line(img, {x, high}, {x, split}, kInk, 1);
  if (split < low) cv::line(img, {x, split}, {x, low}, ink_at(low), 1);
  for (int row : {low, high}) cv::line(img, {x - cap, row}, {x + cap, row}, ink_at(row), 1);
}

double error_at(const Series& s, std::size_t i) { return i < s.error.size() ? s.error[i] : NAN; }

// The whisker's ends of value i: the series' interval ends where given, else y -+ error (NaN when
// neither is).
std::pair<double, double> whisker(const Series& s, std::size_t i) {
  if (i < s.low.size() && i < s.high.size() && std::isfinite(s.low[i]) && std::isfinite(s.high[i]))
    return {s.low[i], s.high[i]};
  const double e = error_at(s, i);
  return {s.y[i] - e, s.y[i] + e};
}

GrayImage line_chart(const ChartLabels& labels, const std::vector<Series>& series) {
  const auto legend = legend_layout(series);
  const Axes a = fit_axes(labels, series, plot_top(legend));
  cv::Mat img(a.bottom() + kBottom, kWidth, CV_8UC1, kWhite);
  draw_frame(img, labels, a);
  std::size_t n = 1;
  for (const auto& s : series) n = std::max(n, s.y.size());
  const auto x_of = [&](std::size_t i) {  // i is 0-based, x = i + 1
    return kLeft + (n == 1 ? kPlotW / 2
                           : static_cast<int>(std::lround(static_cast<double>(i) /
                                                          static_cast<double>(n - 1) * kPlotW)));
  };
  const double step = std::max(1.0, nice_step(static_cast<double>(n), 8));
  for (double x = 1; x <= static_cast<double>(n) + 1e-9; x += step)
    put_text(img, number(x), x_of(static_cast<std::size_t>(x) - 1), a.bottom() + 22, kTick,
             Align::kCenter);
  for (std::size_t s = 0; s < series.size(); ++s) {
    const auto& y = series[s].y;
    double phase = 0;
    for (std::size_t i = 0; i + 1 < y.size(); ++i)
      if (std::isfinite(y[i]) && std::isfinite(y[i + 1]))
        draw_segment(img, cv::Point2d(x_of(i), a.y_of(y[i])),
                     cv::Point2d(x_of(i + 1), a.y_of(y[i + 1])), s, phase);
    for (std::size_t i = 0; i < y.size(); ++i) {
      if (!std::isfinite(y[i])) continue;
      if (y.size() <= 40)
        cv::circle(img, {x_of(i), a.y_of(y[i])}, 3, line_shade(s), cv::FILLED, cv::LINE_AA);
      if (const auto [from, to] = whisker(series[s], i); std::isfinite(from) && std::isfinite(to))
        draw_error_bar(img, a, x_of(i), from, to, 3, a.bottom(), false);
    }
  }
  draw_reference(img, labels, a);
  draw_legend(img, series, legend, false);
  return picture(img);
}

GrayImage bar_chart(const ChartLabels& labels, const std::vector<std::string>& categories,
                    const std::vector<Series>& series) {
  const auto legend = legend_layout(series);
  const Axes a = fit_axes(labels, series, plot_top(legend));
  cv::Mat img(a.bottom() + kBottom, kWidth, CV_8UC1, kWhite);
  draw_frame(img, labels, a);
  const int group = kPlotW / std::max<int>(1, static_cast<int>(categories.size()));
  const int bar = std::max(3, group * 8 / 10 / std::max<int>(1, static_cast<int>(series.size())));
  for (std::size_t k = 0; k < categories.size(); ++k) {
    const int gx = kLeft + static_cast<int>(k) * group;
    put_text(img, categories[k], gx + group / 2, a.bottom() + 22, kTick, Align::kCenter);
    for (std::size_t s = 0; s < series.size(); ++s) {
      if (k >= series[s].y.size() || !std::isfinite(series[s].y[k])) continue;
      const int x0 = gx + group / 10 + static_cast<int>(s) * bar;
      // A bar under kMinBar pixels (0%) would vanish into the axis: it is drawn kMinBar tall,
      // outlined, with its number above it.
      const int exact = std::clamp(a.y_of(series[s].y[k]), a.top, a.bottom());
      const int top = std::min(exact, a.bottom() - kMinBar);
      draw_box(img, cv::Rect(x0, top, bar - 2, a.bottom() - top + 1), s);
      if (exact > top)
        put_text(img, number(series[s].y[k]), x0 + (bar - 2) / 2, top - 4, kTick, Align::kCenter);
      if (const auto [from, to] = whisker(series[s], k); std::isfinite(from) && std::isfinite(to))
        draw_error_bar(img, a, x0 + (bar - 2) / 2, from, to, std::max(2, bar / 4), top,
                       style(s).gray < 128);
    }
  }
  draw_reference(img, labels, a);
  draw_legend(img, series, legend, true);
  return picture(img);
}

}  // namespace
}  // namespace rave::engine::opencv

extern "C" __attribute__((visibility("default"))) const rave::engine::internal::ChartModule*
rave_chart_module() {
  static const rave::engine::internal::ChartModule table{
      .abi = rave::engine::internal::kChartModuleAbi,
      .size = sizeof(rave::engine::internal::ChartModule),
      .line_chart = &rave::engine::opencv::line_chart,
      .bar_chart = &rave::engine::opencv::bar_chart,
  };
  return &table;
}
