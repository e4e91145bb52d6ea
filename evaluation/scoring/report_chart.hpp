#pragma once
// The report of report.hpp as a grouped bar chart (engine/chart/chart.hpp, a gray PNG): one group
// per column (Avg and the seven configurations), one bar per row, the 95% interval of each cell
// as error bars (Wilson for one run, t over seeds clipped to 0..100), chance (12.5%) as a dashed
// line named in the x-axis caption (a label on the line would cover the first group's bars). A 0%
// bar is drawn a few pixels tall with its number above.
//
//   write_file_atomic("acc.png", report_chart_png(report, "test accuracy, RAVEN answer sets"));
#include <string>

#include "engine/model/image.hpp"
#include "evaluation/scoring/report.hpp"

namespace rave::evaluation {

/// The chart as a picture.
engine::GrayImage report_chart_image(const Report& report, const std::string& title);
/// PNG bytes of the chart.
std::string report_chart_png(const Report& report, const std::string& title);

}  // namespace rave::evaluation
