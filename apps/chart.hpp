#pragma once
// Small gray-scale PNG charts for the neural reports (learning curves, accuracy per configuration),
// drawn on a pixel canvas with a built-in 5x7 font and encoded with the engine's PNG writer
// (engine/render/sheet.hpp): no plotting library, no OpenCV outside engine/. Series are told apart by
// line pattern and gray level, so the charts survive black-and-white printing.
//
//   std::string png = line_chart_png({.title = "CNN+DRT", .x_label = "epoch", .y_label = "accuracy %"},
//                                    {{"train", {12.5, 20.1}}, {"val", {12.0, 18.3}}});
//   write_file_atomic("curves.png", std::string_view(png));
#include <string>
#include <vector>

namespace rave::apps {

/// Titles and the y range of a chart (y_max <= y_min means "fit the data").
struct ChartLabels {
  std::string title;
  std::string x_label;
  std::string y_label;
  double y_min = 0;
  double y_max = 0;
  double reference = -1;  ///< a dotted horizontal line (e.g. chance, 12.5), drawn when >= 0
};

/// A named sequence of y values at x = 1, 2, ...; NaN values are gaps.
struct Series {
  std::string name;
  std::vector<double> y;
};

/// A line chart, one pattern per series, legend at the top right.
std::string line_chart_png(const ChartLabels& labels, const std::vector<Series>& series);
/// A grouped bar chart: one group per category, one bar per series (values[s][c]); NaN = no bar.
std::string bar_chart_png(const ChartLabels& labels, const std::vector<std::string>& categories,
                          const std::vector<Series>& series);

}  // namespace rave::apps
