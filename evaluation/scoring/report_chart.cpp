#include "evaluation/scoring/report_chart.hpp"

#include <algorithm>
#include <cmath>

#include "engine/chart/chart.hpp"
#include "engine/formats/png.hpp"

namespace rave::evaluation {

engine::GrayImage report_chart_image(const Report& report, const std::string& title) {
  std::vector<engine::Series> series;
  bool seeds = false, intervals = false;
  for (const auto& row : report.rows) {
    engine::Series s{.name = row.label, .y = {}, .error = {}, .low = {}, .high = {}};
    for (const auto& c : row.columns) {
      s.y.push_back(c.n ? c.mean : NAN);
      const bool drawn = c.has_interval() && std::isfinite(c.mean);
      s.low.push_back(drawn ? c.low() : NAN);
      s.high.push_back(drawn ? c.high() : NAN);
      intervals |= drawn;
      seeds |= c.n >= 2;
    }
    series.push_back(std::move(s));
  }
  std::string x_label = "configuration; dashed line: chance (12.5%)";
  if (intervals)
    x_label +=
        seeds ? "; whiskers: 95% interval (t over seeds)" : "; whiskers: 95% Wilson interval";
  const engine::ChartLabels labels{.title = title,
                                   .x_label = x_label,
                                   .y_label = "accuracy (%)",
                                   .y_min = 0,
                                   .y_max = 100,
                                   .reference = 100.0 / engine::kCandidates,
                                   .reference_label = {}};
  return engine::bar_chart(labels, report_columns(), series);
}

std::string report_chart_png(const Report& report, const std::string& title) {
  return engine::encode_gray_png(report_chart_image(report, title));
}

}  // namespace rave::evaluation
