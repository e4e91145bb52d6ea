// `rave score`: any model's answers scored against a set's answer key: accuracy per configuration
// in the paper's columns, on the provably unique items, beside the solver's ceiling and the
// context-blind shortcut; several seeds of a model summarized with a 95% interval
// (evaluation/scoring/report.hpp). Table on stdout, or one JSON object; CSV and PNG chart to files.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "evaluation/scoring/breakdown.hpp"
#include "evaluation/scoring/paired.hpp"
#include "evaluation/scoring/report.hpp"
#include "evaluation/scoring/report_chart.hpp"
#include "evaluation/scoring/score_subset.hpp"

namespace rave::apps {
namespace {

struct ScoreArgs {
  std::vector<std::string> predictions;
  std::string data, protocol = "multiple-choice", csv, chart, title, subset;
  std::string ties = "split", logprob_score = "mean", text_answer = "auto", answer_queue,
              nattr = "3";
  std::optional<std::string> shuffle_seed;
  bool seeds = false, json = false, no_references = false, no_intervals = false, paired = false,
       by_rule = false;
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
  const auto text_answer = evaluation::parse_text_answer(a.text_answer);
  if (!text_answer && a.text_answer != "auto")
    throw UsageError(
        "--text-answer must be auto, label, letter, index, values or answer-index, not '" +
        a.text_answer + "'");
  evaluation::ScoreOptions o{.protocol = *protocol};
  if (a.shuffle_seed)
    o.shuffle_seed = cli::parse_whole_number(*a.shuffle_seed, "--answers-shuffled", 0, UINT64_MAX);
  o.ties = *ties;
  o.logprob_score =
      a.logprob_score == "sum" ? evaluation::LogprobScore::kSum : evaluation::LogprobScore::kMean;
  o.text_answer = text_answer;
  o.answer_queue = a.answer_queue;
  o.nattr = a.nattr == "all"
                ? evaluation::kAllNumbers
                : static_cast<int>(cli::parse_whole_number(a.nattr, "--nattr", 1, 1000));
  if (a.subset == "answered") o.selection = evaluation::Selection::kAnswered;
  if (!a.subset.empty() && a.subset != "answered") o.selection = evaluation::Selection::kSubset;
  return o;
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

int run_score(const ScoreArgs& a) {
  evaluation::ScoreOptions options = score_options(a);
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
                  "\"text\" lines (a model's reply): label (names a candidate 1..8, as rave's "
                  "image prompts ask), letter (A..H, the harness forms), index (IBM Solver_disc: "
                  "the first number, 0-based), values (IBM Solver_pred: the panel's numbers) or "
                  "answer-index (\"Answer #k\", 0-based, by the label rule: rave.gym's text "
                  "reward); auto: index for a key exported in a text style, else label")
      ->capture_default_str();
  cmd->add_option("--answer-queue", a->answer_queue,
                  "\"text\" lines and \"attributes\" replies are read after the first "
                  "occurrence of this text (IBM's answer_queue)");
  cmd->add_option("--nattr", a->nattr,
                  "--text-answer values: the numbers of a reply and of each candidate compared, "
                  "the first N (IBM's nattr, 3 in its configs) or all")
      ->capture_default_str();
  cmd->add_flag("--no-intervals", a->no_intervals, "Table cells without the 95% intervals");
  cmd->add_option("--protocol", a->protocol, "multiple-choice | single-candidate")
      ->capture_default_str();
  cmd->add_flag("--seeds", a->seeds,
                "Files with the same label (LABEL=, the \"model\" field, or the name less -seedN) "
                "are seeds of one row");
  cmd->add_option("--answers-shuffled", a->shuffle_seed,
                  "The answers refer to rave export --answers-shuffled SEED");
  cmd->add_flag("--paired", a->paired,
                "Compare the two files on the problems both answer: the difference with a "
                "paired bootstrap 95% interval and McNemar's exact test");
  cmd->add_flag(
      "--by-rule", a->by_rule,
      "Also a table of accuracy per rule (\"Type Progression\", ...) for each file's row");
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
