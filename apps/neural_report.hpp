#pragma once
// What `rave train` and `rave eval` print and draw: test accuracy per configuration in the paper's
// column order (Avg, Center, 2x2Grid, 3x3Grid, L-R, U-D, O-IC, O-IG; Avg pools all problems), the
// solver's accuracy on the same files as the ceiling (when rave is built with the solver), and PNG
// charts of learning curves and of accuracy per configuration.
//
//   std::vector<AccuracyRow> rows{accuracy_row("CNN+DRT", result.test)};
//   if (auto ceiling = solver_ceiling(files)) rows.push_back(*ceiling);
//   std::fputs(accuracy_table(rows).c_str(), stdout);
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/configuration.hpp"
#include "neural/dataset.hpp"
#include "neural/trainer.hpp"

namespace rave::apps {

/// One table row: accuracies in percent (NaN where a configuration had no problems).
struct AccuracyRow {
  std::string label;
  std::string note;                                   ///< e.g. the run folder
  double overall = 0;
  std::array<double, engine::kNumConfigs> per_config{};
  std::int64_t problems = 0;
};

/// A row from correct/total counts.
AccuracyRow accuracy_row(std::string label, const neural::AccuracyByConfig& accuracy, std::string note = {});
/// A Markdown table of the rows (columns: model, Avg, the 7 configurations, problems, note).
std::string accuracy_table(const std::vector<AccuracyRow>& rows);
/// The same as CSV (accuracies in percent with 2 decimals).
std::string accuracy_csv(const std::vector<AccuracyRow>& rows);
/// The solver's accuracy on the problems of `files` (their .xml beside the .npz), or nullopt when
/// rave was built without the solver or no XML is there. `skipped` receives files without XML.
std::optional<AccuracyRow> solver_ceiling(const std::vector<neural::DataFile>& files, std::size_t* skipped);
/// Learning curves of a run: train/val accuracy (%) per epoch.
std::string curves_png(const std::string& title, const std::vector<neural::EpochMetrics>& history);
/// Grouped bars: one group per configuration (and Avg), one bar per row.
std::string accuracy_png(const std::string& title, const std::vector<AccuracyRow>& rows);

}  // namespace rave::apps
