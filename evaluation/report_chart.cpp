#include "evaluation/report_chart.hpp"

#include <cmath>

#include "engine/formats/png.hpp"
#include "engine/render/chart.hpp"

namespace rave::evaluation {

std::string report_chart_png(const Report& report, const std::string& title) {
  std::vector<engine::Series> series;
  bool intervals = false;
  for (const auto& row : report.rows) {
    engine::Series s{.name = row.label, .y = {}, .error = {}};
    for (const auto& c : row.columns) {
      s.y.push_back(c.n ? c.mean : NAN);
      s.error.push_back(c.n >= 2 ? c.half_width : NAN);
      intervals |= c.n >= 2;
    }
    series.push_back(std::move(s));
  }
  const std::string x_label =
      intervals ? "configuration (bars: mean over seeds, whiskers: 95% t interval)"
                : "configuration";
  const engine::ChartLabels labels{.title = title,
                                   .x_label = x_label,
                                   .y_label = "accuracy (%)",
                                   .y_min = 0,
                                   .y_max = 100,
                                   .reference = 100.0 / engine::kCandidates,
                                   .reference_label = "chance"};
  return engine::encode_gray_png(engine::bar_chart(labels, report_columns(), series));
}

}  // namespace rave::evaluation
