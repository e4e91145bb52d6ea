#pragma once
// The charts' entry points in the drawing module librave_opencv.so: the module (loaded by
// engine/render, internal/drawing_module.hpp) exports them as `rave_chart_module`, beside the
// renderer's own table, so that the renderer knows nothing of charts and the charts reach OpenCV
// without a second owner of it. engine/chart/chart.cpp looks the table up; opencv/chart.cpp fills it.
//
//   const auto* m = reinterpret_cast<const ChartModule* (*)()>(
//       drawing_module_symbol("rave_chart_module"))();
//   GrayImage chart = m->line_chart(labels, series);
#include <cstddef>
#include <string>
#include <vector>

#include "engine/chart/chart.hpp"
#include "engine/model/image.hpp"

namespace rave::engine::internal {

/// Bumped whenever ChartModule changes: a module of another layout is refused, not called.
inline constexpr int kChartModuleAbi = 1;

/// The chart entry points: plain function pointers over chart.hpp's types.
struct ChartModule {
  int abi;           ///< kChartModuleAbi of the module's build
  std::size_t size;  ///< sizeof(ChartModule) there: a second layout check
  GrayImage (*line_chart)(const ChartLabels& labels, const std::vector<Series>& series);
  GrayImage (*bar_chart)(const ChartLabels& labels, const std::vector<std::string>& categories,
                         const std::vector<Series>& series);
};

}  // namespace rave::engine::internal

/// The module's chart symbol.
extern "C" const rave::engine::internal::ChartModule* rave_chart_module();
