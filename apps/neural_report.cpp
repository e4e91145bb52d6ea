// Reports of `rave train` / `rave eval` (neural_report.hpp).
#include "apps/neural_report.hpp"

#include "engine/formats/png.hpp"
#include "engine/render/chart.hpp"
#include "evaluation/items.hpp"

namespace rave::apps {

evaluation::Report counts_report(const std::string& label, const neural::AccuracyByConfig& a,
                                 const std::string& note) {
  evaluation::Report r{.protocol = "multiple-choice", .data = {}, .rows = {}, .outside = 0};
  r.rows.push_back(evaluation::file_row(evaluation::counts_score(label, a.correct, a.total), note));
  return r;
}

evaluation::PredictionFile prediction_file(const std::filesystem::path& data,
                                           const neural::EvalResult& result,
                                           const std::string& model) {
  evaluation::PredictionFile f{.file = model, .model = model, .predictions = {}};
  for (const auto& p : result.predictions)
    f.predictions.push_back({.id = evaluation::item_id(data, p.file),
                             .answer = p.answer,
                             .scores = std::vector<double>(p.logits.begin(), p.logits.end()),
                             .line = f.predictions.size() + 1});
  return f;
}

std::string predictions_jsonl(const evaluation::PredictionFile& file, const std::string& model) {
  std::string out;
  for (const auto& p : file.predictions) out += evaluation::prediction_line(p, model) + "\n";
  return out;
}

std::string curves_png(const std::string& title, const std::vector<neural::EpochMetrics>& history) {
  engine::Series train{.name = "train", .y = {}}, val{.name = "validation", .y = {}};
  for (const auto& m : history) {
    train.y.push_back(100.0 * m.train_accuracy);
    val.y.push_back(100.0 * m.val_accuracy);
  }
  const engine::ChartLabels labels{.title = title,
                                   .x_label = "epoch",
                                   .y_label = "accuracy (%)",
                                   .y_min = 0,
                                   .y_max = 100,
                                   .reference = 100.0 / engine::kCandidates,
                                   .reference_label = "chance"};
  return engine::encode_gray_png(engine::line_chart(labels, {train, val}));
}

}  // namespace rave::apps
