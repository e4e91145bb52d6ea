// Charts, drawn by the drawing module (OpenCV; engine/render/opencv/chart.cpp).
#include "engine/render/chart.hpp"

#include "engine/render/internal/drawing_module.hpp"

namespace rave::engine {

GrayImage line_chart(const ChartLabels& labels, const std::vector<Series>& series) {
  return internal::drawing_module().line_chart(labels, series);
}

GrayImage bar_chart(const ChartLabels& labels, const std::vector<std::string>& categories,
                    const std::vector<Series>& series) {
  return internal::drawing_module().bar_chart(labels, categories, series);
}

}  // namespace rave::engine
