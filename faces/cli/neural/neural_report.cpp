// Reports of `rave train` / `rave eval` (neural_report.hpp).
#include "cli/neural/neural_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/formats/png.hpp"
#include "engine/formats/problem_files.hpp"
#include "evaluation/items.hpp"

namespace rave::cli {

evaluation::Report counts_report(const std::string& label, const neural::AccuracyByConfig& a,
                                 const std::string& note) {
  evaluation::Report r{.protocol = "multiple-choice", .data = {}, .rows = {}, .outside = 0};
  r.rows.push_back(evaluation::file_row(evaluation::counts_score(label, a.correct, a.total), note));
  return r;
}

evaluation::PredictionFile prediction_file(const std::filesystem::path& data,
                                           const std::vector<neural::ProblemScores>& answers,
                                           const std::string& model) {
  evaluation::PredictionFile f{.file = model, .model = model, .predictions = {}};
  for (const auto& p : answers)
    f.predictions.push_back({.id = evaluation::item_id(data, p.file),
                             .answer = p.answer,
                             .scores = std::vector<double>(p.logits.begin(), p.logits.end()),
                             .line = f.predictions.size() + 1});
  return f;
}

evaluation::Report answers_report(const std::filesystem::path& data,
                                  const std::vector<evaluation::LabeledFile>& files,
                                  const std::vector<neural::AccuracyByConfig>& counts, int threads,
                                  bool seeds, bool references) {
  if (!engine::collect_problem_files({data}).empty()) {
    const auto key = evaluation::AnswerKey::load(data, threads);
    return evaluation::build_report(key, files, {}, seeds, references);
  }
  std::fprintf(stderr, "rave: no .xml files in %s: no solver or context-blind rows\n",
               data.c_str());
  evaluation::Report report{
      .protocol = "multiple-choice", .data = data.string(), .rows = {}, .outside = 0};
  for (std::size_t i = 0; i < files.size(); ++i)
    report.rows.push_back(evaluation::file_row(
        evaluation::counts_score(files[i].label, counts[i].correct, counts[i].total),
        files[i].file.file));
  return report;
}

std::string predictions_jsonl(const evaluation::PredictionFile& file, const std::string& model) {
  std::string out;
  for (const auto& p : file.predictions) out += evaluation::prediction_line(p, model) + "\n";
  return out;
}

std::vector<engine::Series> curve_series(const std::vector<neural::EpochMetrics>& history) {
  engine::Series train{.name = "train", .y = {}}, val{.name = "validation", .y = {}},
      test{.name = "test (diagnosis only)", .y = {}};
  for (const auto& m : history) {
    train.y.push_back(100.0 * m.train_accuracy);
    val.y.push_back(100.0 * m.val_accuracy);
    // NaN, a gap in the line, at an epoch that did not log the test
    test.y.push_back(m.has_test ? 100.0 * m.test.overall() : std::nan(""));
  }
  std::vector<engine::Series> series{train, val};
  if (std::ranges::any_of(history, &neural::EpochMetrics::has_test)) series.push_back(test);
  return series;
}

std::string curves_png(const std::string& title, const std::vector<neural::EpochMetrics>& history) {
  const engine::ChartLabels labels{.title = title,
                                   .x_label = "epoch",
                                   .y_label = "accuracy (%)",
                                   .y_min = 0,
                                   .y_max = 100,
                                   .reference = 100.0 / engine::kCandidates,
                                   .reference_label = "chance"};
  return engine::encode_gray_png(engine::line_chart(labels, curve_series(history)));
}

}  // namespace rave::cli
