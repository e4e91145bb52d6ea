#pragma once
// What `rave train` and `rave eval` print and draw, through the evaluation harness
// (evaluation/scoring/report.hpp): test accuracy per configuration in the paper's columns, the learning
// curves as a PNG, and a checkpoint's answers as a predictions file that `rave score` reads.
//
//   evaluation::Report r = counts_report("CNN+DRT", result.test, "runs/cnn-drt");
//   std::fputs(evaluation::report_table(r).c_str(), stdout);
//   std::string lines = predictions_jsonl("d", eval_result, "CNN+DRT");
#include <filesystem>
#include <string>
#include <vector>

#include "engine/chart/chart.hpp"
#include "evaluation/scoring/report.hpp"
#include "neural/epoch_loop.hpp"

namespace rave::cli {

/// A one-row report from per-configuration counts (rave train's test split).
evaluation::Report counts_report(const std::string& label, const neural::AccuracyByConfig& accuracy,
                                 const std::string& note);
/// A checkpoint's answers as predictions: ids relative to `data`, the argmax as the answer, the 8
/// logits as scores.
evaluation::PredictionFile prediction_file(const std::filesystem::path& data,
                                           const std::vector<neural::ProblemScores>& answers,
                                           const std::string& model);
/// The report of models' answers (`files`), as `rave score` makes it, against the answer key of
/// `data` (with the solver and context-blind rows when `references`) where it holds problem files;
/// else (a folder of npz alone) one row per file from `counts`, with a note on stderr.
evaluation::Report answers_report(const std::filesystem::path& data,
                                  const std::vector<evaluation::LabeledFile>& files,
                                  const std::vector<neural::AccuracyByConfig>& counts, int threads,
                                  bool seeds, bool references);
/// The same as JSON Lines, each line naming the model.
std::string predictions_jsonl(const evaluation::PredictionFile& file, const std::string& model);
/// The learning curves of a run: train and validation accuracy (%) per epoch, and a third series,
/// the test's, where --log-test logged it (NaN, a gap, at the epochs it did not).
std::vector<engine::Series> curve_series(const std::vector<neural::EpochMetrics>& history);
/// The curves as a PNG line chart.
std::string curves_png(const std::string& title, const std::vector<neural::EpochMetrics>& history);

}  // namespace rave::cli
