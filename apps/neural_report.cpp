// Reports of `rave train` / `rave eval` (neural_report.hpp).
#include "apps/neural_report.hpp"

#include <cmath>
#include <cstdio>

#include "apps/chart.hpp"

#include <filesystem>

#include "solver/heuristic.hpp"
#include "engine/formats/problem_files.hpp"

namespace rave::apps {
namespace {

std::string percent(double v) {
  if (!std::isfinite(v)) return "-";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::vector<std::string> column_names() {
  std::vector<std::string> names{"Avg"};
  for (const auto& c : engine::all_configurations()) names.emplace_back(c.paper_name);
  return names;
}

std::vector<double> row_values(const AccuracyRow& r) {
  std::vector<double> v{r.overall};
  v.insert(v.end(), r.per_config.begin(), r.per_config.end());
  return v;
}

}  // namespace

AccuracyRow accuracy_row(std::string label, const neural::AccuracyByConfig& a, std::string note) {
  AccuracyRow r{std::move(label), std::move(note), 100.0 * a.overall(), {}, a.problems()};
  for (const auto& c : engine::all_configurations())
    r.per_config[static_cast<std::size_t>(engine::config_index(c.id))] = 100.0 * a.accuracy(c.id);
  return r;
}

std::string accuracy_table(const std::vector<AccuracyRow>& rows) {
  std::string out = "| model |";
  for (const auto& name : column_names()) out += " " + name + " |";
  out += " problems | run |\n|---|";
  for (std::size_t i = 0; i < column_names().size(); ++i) out += "---:|";
  out += "---:|---|\n";
  for (const auto& r : rows) {
    out += "| " + r.label + " |";
    for (double v : row_values(r)) out += " " + percent(v) + " |";
    out += " " + std::to_string(r.problems) + " | " + r.note + " |\n";
  }
  return out;
}

std::string accuracy_csv(const std::vector<AccuracyRow>& rows) {
  std::string out = "model";
  for (const auto& name : column_names()) out += "," + name;
  out += ",problems,run\n";
  for (const auto& r : rows) {
    out += r.label;
    for (double v : row_values(r)) out += "," + (std::isfinite(v) ? percent(v) : std::string());
    out += "," + std::to_string(r.problems) + "," + r.note + "\n";
  }
  return out;
}

std::optional<AccuracyRow> solver_ceiling(const std::vector<neural::DataFile>& files, std::size_t* skipped) {
  if (skipped) *skipped = 0;
  neural::AccuracyByConfig a;
  solver::HeuristicSolver heuristic;
  for (const auto& f : files) {
    auto xml = f.path;
    xml.replace_extension(".xml");
    std::error_code ec;
    if (!std::filesystem::is_regular_file(xml, ec)) {
      if (skipped) ++*skipped;
      continue;
    }
    const engine::Problem p = engine::read_problem(xml);
    const auto c = static_cast<std::size_t>(engine::config_index(f.config));
    ++a.total[c];
    if (p.target && heuristic.solve(p).answer == *p.target) ++a.correct[c];
  }
  if (a.problems() == 0) return std::nullopt;
  return accuracy_row("Solver", a, "rave solve (heuristic)");
}

std::string curves_png(const std::string& title, const std::vector<neural::EpochMetrics>& history) {
  Series train{"train", {}}, val{"val", {}};
  for (const auto& m : history) {
    train.y.push_back(100.0 * m.train_accuracy);
    val.y.push_back(100.0 * m.val_accuracy);
  }
  return line_chart_png({.title = title, .x_label = "epoch", .y_label = "accuracy %", .y_min = 0, .y_max = 100,
                         .reference = 12.5},
                        {train, val});
}

std::string accuracy_png(const std::string& title, const std::vector<AccuracyRow>& rows) {
  std::vector<Series> series;
  for (const auto& r : rows) series.push_back({r.label, row_values(r)});
  return bar_chart_png({.title = title, .x_label = "configuration (dotted line: chance 12.5%)",
                        .y_label = "test accuracy %", .y_min = 0, .y_max = 100, .reference = 12.5},
                       column_names(), series);
}

}  // namespace rave::apps
