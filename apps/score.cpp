// `rave score`: any model's answers scored against a set's answer key: accuracy per configuration
// in the paper's columns, on the provably unique items, beside the solver's ceiling and the
// context-blind shortcut; several seeds of a model summarized with a 95% interval
// (evaluation/report.hpp). Table on stdout, or one JSON object; CSV and PNG chart to files.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "evaluation/report.hpp"
#include "evaluation/report_chart.hpp"
#include "evaluation/score_subset.hpp"

namespace rave::apps {
namespace {

struct ScoreArgs {
  std::vector<std::string> predictions;
  std::string data, protocol = "multiple-choice", csv, chart, title, subset;
  std::string ties = "split", logprob_score = "mean", text_answer = "index", answer_queue;
  std::optional<std::string> shuffle_seed;
  bool seeds = false, json = false, no_references = false, no_intervals = false;
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
    if (r.unanswered)
      std::fprintf(stderr,
                   "rave score: %s: %d problem(s) shown to its participants and not answered, "
                   "not scored (each participant is scored on the problems they answered)\n",
                   r.label.c_str(), r.unanswered);
  }
}

// The options the flags name; UsageError on a value outside a flag's words.
evaluation::ScoreOptions score_options(const ScoreArgs& a) {
  const auto protocol = evaluation::parse_protocol(a.protocol);
  if (!protocol)
    throw UsageError("--protocol must be multiple-choice or single-candidate, not '" + a.protocol +
                     "'");
  const auto ties = evaluation::parse_tie_rule(a.ties);
  if (!ties) throw UsageError("--ties must be split or any, not '" + a.ties + "'");
  if (a.logprob_score != "mean" && a.logprob_score != "sum")
    throw UsageError("--logprob-score must be mean or sum, not '" + a.logprob_score + "'");
  if (a.text_answer != "index" && a.text_answer != "values")
    throw UsageError("--text-answer must be index or values, not '" + a.text_answer + "'");
  evaluation::ScoreOptions o{.protocol = *protocol};
  if (a.shuffle_seed)
    o.shuffle_seed = parse_whole_number(*a.shuffle_seed, "--answers-shuffled", 0, UINT64_MAX);
  o.ties = *ties;
  o.logprob_score =
      a.logprob_score == "sum" ? evaluation::LogprobScore::kSum : evaluation::LogprobScore::kMean;
  o.text_answer =
      a.text_answer == "values" ? evaluation::TextAnswer::kValues : evaluation::TextAnswer::kIndex;
  o.answer_queue = a.answer_queue;
  if (a.subset == "answered") o.selection = evaluation::Selection::kAnswered;
  if (!a.subset.empty() && a.subset != "answered") o.selection = evaluation::Selection::kSubset;
  return o;
}

// Whether any line answers in a form that needs the candidates' values.
bool needs_values(const std::vector<evaluation::LabeledFile>& files) {
  for (const auto& f : files)
    for (const auto& p : f.file.predictions)
      if (!p.texts.empty() || !p.attributes.empty()) return true;
  return false;
}

void print_selection(const evaluation::Report& report, const std::string& subset) {
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
  if (!report.references)
    std::printf("no Solver or Context-blind rows: the key (a text export) holds no problems\n");
}

int run_score(const ScoreArgs& a) {
  evaluation::ScoreOptions options = score_options(a);
  std::vector<evaluation::LabeledFile> files;
  for (const auto& word : a.predictions) {
    auto [label, path] = split_label(word);
    evaluation::PredictionFile f = evaluation::read_predictions(path);
    files.push_back({evaluation::file_label(label, f), std::move(f)});
  }
  const auto key = evaluation::AnswerKey::load(a.data, a.threads, {.values = needs_values(files)});
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
  if (a.json) {
    std::fputs(evaluation::report_json(report).c_str(), stdout);
  } else {
    std::printf("accuracy (%%) on %s, %s protocol%s:\n%s", report.data.c_str(),
                report.protocol.c_str(),
                a.no_intervals ? ""
                               : "; [95% interval: Wilson for one run, t over seeds clipped to "
                                 "0..100]",
                evaluation::report_table(report).c_str());
    print_selection(report, a.subset);
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
                  "The set the answers are for: a folder of .xml + .npz (or .asig), or a rave "
                  "export .jsonl file (answers in its shown order)")
      ->required();
  cmd->add_option("--subset", a->subset,
                  "Score only these problems: 'answered' (those each file answers) or a FILE "
                  "(JSON list or one per line: ids, or numbers k = problem k of each "
                  "configuration); default: every problem of the groups a file answers");
  cmd->add_option("--ties", a->ties,
                  "Tied top scores: split (1/k each, default) or any (lm-raven: right when the "
                  "answer is among them)")
      ->capture_default_str();
  cmd->add_option("--logprob-score", a->logprob_score,
                  "\"logprobs\" lines: a candidate's score per sub-prompt is the mean (lm-raven) "
                  "or the sum of its token log-probabilities")
      ->capture_default_str();
  cmd->add_option("--text-answer", a->text_answer,
                  "\"text\" lines: index (the first number names the candidate, IBM Solver_disc) "
                  "or values (the first numbers are the panel, IBM Solver_pred)")
      ->capture_default_str();
  cmd->add_option("--answer-queue", a->answer_queue,
                  "\"text\" lines are read after the first occurrence of this text (IBM's "
                  "answer_queue)");
  cmd->add_flag("--no-intervals", a->no_intervals, "Table cells without the 95% intervals");
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
