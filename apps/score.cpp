// `rave score`: any model's answers scored against a set's answer key: accuracy per configuration
// in the paper's columns, on the provably unique items, beside the solver's ceiling and the
// context-blind shortcut; several seeds of a model summarized with a 95% interval
// (evaluation/report.hpp). Table on stdout, or one JSON object; CSV and PNG chart to files.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "apps/cli_util.hpp"
#include "apps/commands.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "evaluation/report.hpp"
#include "evaluation/report_chart.hpp"

namespace rave::apps {
namespace {

struct ScoreArgs {
  std::vector<std::string> predictions;
  std::string data, protocol = "multiple-choice", csv, chart, title;
  std::optional<std::uint64_t> shuffle_seed;
  bool seeds = false, json = false, no_references = false;
  int threads = 1;
};

// "LABEL=FILE" -> {LABEL, FILE}; a word whose part before '=' holds a path separator is a file.
std::pair<std::string, std::string> split_label(const std::string& word) {
  const auto eq = word.find('=');
  if (eq == std::string::npos || eq == 0 || word.substr(0, eq).find('/') != std::string::npos)
    return {"", word};
  return {word.substr(0, eq), word.substr(eq + 1)};
}

void warn_about(const evaluation::Report& report) {
  for (const auto& r : report.rows) {
    if (r.unknown)
      std::fprintf(stderr, "rave score: %s: %d answer(s) for ids that are not in %s (first: %s)\n",
                   r.label.c_str(), r.unknown, report.data.c_str(), r.unknown_ids.front().c_str());
    if (r.missing)
      std::fprintf(stderr, "rave score: %s: %d problem(s) without an answer, counted wrong\n",
                   r.label.c_str(), r.missing);
  }
}

int run_score(const ScoreArgs& a) {
  const auto protocol = evaluation::parse_protocol(a.protocol);
  if (!protocol)
    throw UsageError("--protocol must be multiple-choice or single-candidate, not '" + a.protocol +
                     "'");
  std::vector<evaluation::LabeledFile> files;
  for (const auto& word : a.predictions) {
    auto [label, path] = split_label(word);
    evaluation::PredictionFile f = evaluation::read_predictions(path);
    files.push_back({evaluation::file_label(label, f), std::move(f)});
  }
  const auto key = evaluation::AnswerKey::load(a.data, a.threads);
  const evaluation::Report report =
      evaluation::build_report(key, files, {.protocol = *protocol, .shuffle_seed = a.shuffle_seed},
                               a.seeds, !a.no_references);
  warn_about(report);
  if (a.json) {
    std::fputs(evaluation::report_json(report).c_str(), stdout);
  } else {
    std::printf("accuracy (%%) on %s, %s protocol%s:\n%s", report.data.c_str(),
                report.protocol.c_str(),
                a.seeds ? "; over seeds: mean ± half-width of the 95% t interval" : "",
                evaluation::report_table(report).c_str());
    if (report.outside)
      std::printf("%d problems of the set are in groups no file answered (left out)\n",
                  report.outside);
  }
  if (!a.csv.empty()) write_file_atomic(a.csv, evaluation::report_csv(report));
  if (!a.chart.empty())
    write_file_atomic(a.chart,
                      evaluation::report_chart_png(
                          report, a.title.empty() ? "accuracy on " + report.data : a.title));
  return 0;
}

}  // namespace

Runner add_score(CLI::App& app) {
  auto a = std::make_shared<ScoreArgs>();
  auto* cmd = app.add_subcommand(
      "score",
      "Score a model's answers (JSON Lines {\"id\", \"answer\"} or {\"id\", \"scores\"}, CSV, or "
      "rave solve --json)\n"
      "against a set: accuracy per configuration, on the provably unique problems, beside the "
      "solver's\n"
      "ceiling and the context-blind shortcut. With --seeds, files sharing a label are seeds of "
      "one\n"
      "model: mean ± a 95% t interval. docs/evaluation.md has the formats and the protocols.");
  cmd->add_option("predictions", a->predictions, "Predictions files, each as FILE or LABEL=FILE")
      ->required();
  cmd->add_option("--data,-d", a->data,
                  "The set the answers are for (folder of .xml + .npz, or .asig)")
      ->required();
  cmd->add_option("--protocol", a->protocol, "multiple-choice | single-candidate")
      ->capture_default_str();
  cmd->add_flag("--seeds", a->seeds,
                "Files with the same label (LABEL=, the \"model\" field, or the name less -seedN) "
                "are seeds of one row");
  cmd->add_option("--answers-shuffled", a->shuffle_seed,
                  "The answers refer to rave export --answers-shuffled SEED");
  cmd->add_flag("--json", a->json, "Print one JSON object instead of the table");
  cmd->add_option("--csv", a->csv, "Write the table as CSV (means, sd, interval ends)");
  cmd->add_option("--chart", a->chart, "Write a PNG bar chart with 95% interval bars");
  cmd->add_option("--title", a->title, "Title of the chart");
  cmd->add_flag("--no-references", a->no_references, "Leave out the solver and context-blind rows");
  cmd->add_option("-j,--jobs", a->threads, "Worker threads reading the set")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  return [a] { return run_score(*a); };
}

}  // namespace rave::apps
