#pragma once
// Charts for reports (learning curves, accuracy per configuration with intervals) as gray pictures,
// drawn with OpenCV: Hershey fonts for the text (cv::putText, anti-aliased), the y-axis label
// turned upright, series told apart by gray level and hatching (bars) or dash pattern (lines), so
// they survive black-and-white printing, and error bars with caps. Text is ASCII (the Hershey fonts
// have no other glyphs). engine/formats/png.hpp writes the PNG. The drawing happens in the drawing
// module that engine/render loads (internal/chart_module.hpp); this library is its front.
//
//   GrayImage chart = bar_chart({.title = "test accuracy", .x_label = "configuration",
//                                .y_label = "accuracy (%)", .y_min = 0, .y_max = 100, .reference
//                                = 12.5},
//                               {"Avg", "Center"}, {{"CNN", {33.1, 28.5}, {2.0, 3.1}}});
//   write_file_atomic("acc.png", encode_gray_png(chart));
#include <string>
#include <vector>

#include "engine/model/image.hpp"

namespace rave::engine {

/// Titles and the y range of a chart (y_max <= y_min means "fit the data").
struct ChartLabels {
  std::string title;
  std::string x_label;
  std::string y_label;
  double y_min = 0;
  double y_max = 0;
  double reference = -1;  ///< a dashed horizontal line (e.g. chance, 12.5), drawn when >= 0
  std::string reference_label = {};  ///< its name, written at its right end
};

/// A named sequence of y values at x = 1, 2, ... (line chart) or per category (bar chart); NaN
/// values are gaps. `error` (empty, or one per value; NaN = none) is drawn as +- error bars;
/// `low` and `high` (interval ends, one per value) are drawn instead where both are given.
struct Series {
  std::string name;
  std::vector<double> y;
  std::vector<double> error = {};
  std::vector<double> low = {};
  std::vector<double> high = {};
};

/// A line chart: one gray level and dash pattern per series, markers, legend below the title.
GrayImage line_chart(const ChartLabels& labels, const std::vector<Series>& series);
/// A grouped bar chart: one group per category, one bar per series (series[s].y[c]), error bars
/// where given, legend below the title. A bar too low to see (0%) is drawn 3 pixels tall with its
/// number written above it.
GrayImage bar_chart(const ChartLabels& labels, const std::vector<std::string>& categories,
                    const std::vector<Series>& series);

}  // namespace rave::engine
