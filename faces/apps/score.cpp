// `rave score`: any model's answers scored against a set's answer key: accuracy per configuration
// in the paper's columns, on the provably unique items, beside the solver's ceiling and the
// context-blind shortcut; several seeds of a model summarized with a 95% interval
// (evaluation/scoring/report.hpp). Table on stdout, or one JSON object; CSV and PNG chart to files.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "cli/score_options.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "evaluation/scoring/breakdown.hpp"
#include "evaluation/scoring/paired.hpp"
#include "evaluation/scoring/report.hpp"
#include "evaluation/scoring/report_chart.hpp"
#include "evaluation/scoring/score_subset.hpp"

namespace rave::apps {
namespace {

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
    if (r.unanswered)
      std::fprintf(stderr,
                   "rave score: %s: %d problem(s) shown to its participants and not answered, "
                   "not scored (each participant is scored on the problems they answered)\n",
                   r.label.c_str(), r.unanswered);
  }
}

// Whether any line answers in a form that needs the candidates' values (IBM's: "attributes", and
// "text" unless it is read as a label or a letter).
bool needs_values(const std::vector<evaluation::LabeledFile>& files,
                  std::optional<evaluation::TextAnswer> text) {
  const bool labels = text == evaluation::TextAnswer::kLabel ||
                      text == evaluation::TextAnswer::kLetter ||
                      text == evaluation::TextAnswer::kAnswerIndex;
  for (const auto& f : files)
    for (const auto& p : f.file.predictions)
      if ((!p.texts.empty() && !labels) || !p.attributes.empty()) return true;
  return false;
}

void print_selection(const evaluation::Report& report, const std::string& subset,
                     bool references_asked) {
  const auto& first = report.rows.front();
  if (first.participants) {
    std::printf("%d of the set's %d problems scored (the problems each participant answered%s%s)\n",
                report.set_items - report.outside, report.set_items,
                subset.empty() ? "" : "; the other rows: ", subset.c_str());
    return;
  }
  std::printf("%d of the set's %d problems scored (", first.evaluated, report.set_items);
  if (report.selection == "groups")
    std::printf("the groups the files answer; %d left out)\n", report.outside);
  else if (report.selection == "answered")
    std::printf("the problems each file answers)\n");
  else
    std::printf("subset %s)\n", subset.c_str());
  if (references_asked && !report.references)
    std::printf("no Solver or Context-blind rows: the key (a text export) holds no problems\n");
}

int run_score(const cli::ScoreFlags& a) {
  evaluation::ScoreOptions options = cli::score_options(a);
  if (a.paired && (a.predictions.size() != 2 || a.seeds))
    throw UsageError("--paired compares two predictions files (without --seeds), not " +
                     std::to_string(a.predictions.size()));
  std::vector<evaluation::LabeledFile> files;
  for (const auto& word : a.predictions) {
    auto [label, path] = split_label(word);
    evaluation::PredictionFile f = evaluation::read_predictions(path);
    files.push_back({evaluation::file_label(label, f), std::move(f)});
  }
  const auto key = evaluation::AnswerKey::load(
      a.data, a.threads,
      {.values = needs_values(files, options.text_answer), .references = !a.no_references});
  if (options.selection == evaluation::Selection::kSubset) {
    const evaluation::Subset s = evaluation::read_subset(a.subset, key);
    options.subset = s.member;
    if (s.absent)
      std::fprintf(stderr,
                   "rave score: %s: %d of its %d entries name no problem of %s (first: %s)\n",
                   a.subset.c_str(), s.absent, s.entries, a.data.c_str(), s.first_absent.c_str());
  }
  evaluation::Report report =
      evaluation::build_report(key, files, options, a.seeds, !a.no_references);
  report.intervals = !a.no_intervals;
  if (options.selection == evaluation::Selection::kSubset) report.selection = "subset " + a.subset;
  warn_about(report);
  std::optional<evaluation::PairedComparison> paired;
  if (a.paired) paired = evaluation::compare_paired(report.rows[0], report.rows[1]);
  if (a.json) {
    std::string json = evaluation::report_json(report);
    // More members of the object, before its closing brace.
    if (paired)
      json.insert(json.rfind('}'), ",\n  \"paired\": " + evaluation::paired_json(*paired) + "\n");
    if (a.by_rule)
      json.insert(json.rfind('}'),
                  ",\n  \"by_rule\": " + evaluation::rule_json(key, report) + "\n");
    std::fputs(json.c_str(), stdout);
  } else {
    std::printf("accuracy (%%) on %s, %s protocol%s:\n%s", report.data.c_str(),
                report.protocol.c_str(),
                a.no_intervals ? ""
                               : "; [95% interval: Wilson for one run, t over seeds clipped to "
                                 "0..100]",
                evaluation::report_table(report).c_str());
    print_selection(report, a.subset, !a.no_references);
    if (paired) std::fputs(evaluation::paired_text(*paired).c_str(), stdout);
    if (a.by_rule)
      std::printf("\naccuracy (%%) by rule (a problem counts under every rule it has):\n%s",
                  evaluation::rule_table(key, report).c_str());
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
  auto a = std::make_shared<cli::ScoreFlags>();
  auto* cmd = app.add_subcommand(
      "score",
      "Score a model's answers (JSON Lines {\"id\", \"answer\"} or {\"id\", \"scores\"}, CSV, or "
      "rave solve --json)\n"
      "against a set: accuracy per configuration, on the provably unique problems, beside the "
      "solver's\n"
      "ceiling and the context-blind shortcut. With --seeds, files sharing a label are seeds of "
      "one\n"
      "model: mean ± a 95% t interval. docs/evaluation.md has the formats and the protocols.");
  cli::bind_score_flags(*cmd, *a);
  return [a] { return run_score(*a); };
}

}  // namespace rave::apps
