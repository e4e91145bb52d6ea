// Charts, drawn by the drawing module (OpenCV; engine/chart/opencv/chart.cpp is compiled into it).
#include "engine/chart/chart.hpp"

#include "common/error.hpp"
#include "engine/chart/internal/chart_module.hpp"
#include "engine/render/internal/drawing_module.hpp"

namespace rave::engine {
namespace {

const internal::ChartModule* find_chart_module() {
  using Entry = const internal::ChartModule* (*)();
  const auto entry = reinterpret_cast<Entry>(internal::drawing_module_symbol("rave_chart_module"));
  const internal::ChartModule* m = entry != nullptr ? entry() : nullptr;
  if (m == nullptr || m->abi != internal::kChartModuleAbi ||
      m->size != sizeof(internal::ChartModule))
    throw Error(internal::drawing_module_path() +
                " holds no charts of this build's layout (rebuild rave)");
  return m;
}

const internal::ChartModule& chart_module() {
  static const internal::ChartModule* const m = find_chart_module();
  return *m;
}

}  // namespace

GrayImage line_chart(const ChartLabels& labels, const std::vector<Series>& series) {
  return chart_module().line_chart(labels, series);
}

GrayImage bar_chart(const ChartLabels& labels, const std::vector<std::string>& categories,
                    const std::vector<Series>& series) {
  return chart_module().bar_chart(labels, categories, series);
}

}  // namespace rave::engine
