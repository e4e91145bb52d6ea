#pragma once
// The report of report.hpp as a grouped bar chart (engine/render/chart.hpp, a gray PNG): one group
// per column (Avg and the seven configurations), one bar per row, the 95% interval of seed rows as
// error bars, chance (12.5%) as a dashed line.
//
//   write_file_atomic("acc.png", report_chart_png(report, "test accuracy, RAVEN answer sets"));
#include <string>

#include "evaluation/report.hpp"

namespace rave::evaluation {

/// PNG bytes of the chart.
std::string report_chart_png(const Report& report, const std::string& title);

}  // namespace rave::evaluation
