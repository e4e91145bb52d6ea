#include "cli/score_options.hpp"

#include <cstdint>

#include "cli/cli_util.hpp"
#include "common/error.hpp"

namespace rave::cli {
namespace {

constexpr const char* kAuto = "auto";  // --text-answer's word for the key's own (nullopt)
constexpr const char* kAll = "all";    // --nattr's word for kAllNumbers

std::string text_answer_word(std::optional<evaluation::TextAnswer> mode) {
  return mode ? std::string(evaluation::text_answer_name(*mode)) : kAuto;
}

std::string nattr_word(int nattr) {
  return nattr == evaluation::kAllNumbers ? kAll : std::to_string(nattr);
}

// How the answers are read: the ScoreOptions' words.
void bind_reading_flags(CLI::App& cmd, ScoreFlags& f) {
  cmd.add_option("--ties", f.ties,
                 "Tied top scores: split (1/k each, default) or any (lm-raven: right when the "
                 "answer is among them)")
      ->capture_default_str();
  cmd.add_option("--logprob-score", f.logprob_score,
                 "\"logprobs\" lines: a candidate's score per sub-prompt is the mean (lm-raven) "
                 "or the sum of its token log-probabilities")
      ->capture_default_str();
  cmd.add_option("--text-answer", f.text_answer,
                 "\"text\" lines (a model's reply): label (names a candidate 1..8, as rave's "
                 "image prompts ask), letter (A..H, the harness forms), index (IBM Solver_disc: "
                 "the first number, 0-based), values (IBM Solver_pred: the panel's numbers) or "
                 "answer-index (\"Answer #k\", 0-based, by the label rule: rave.gym's text "
                 "reward); auto: index for a key exported in a text style, else label")
      ->capture_default_str();
  cmd.add_option("--answer-queue", f.options.answer_queue,
                 "\"text\" lines and \"attributes\" replies are read after the first "
                 "occurrence of this text (IBM's answer_queue)");
  cmd.add_option("--nattr", f.nattr,
                 "--text-answer values: the numbers of a reply and of each candidate compared, "
                 "the first N (IBM's nattr, 3 in its configs) or all")
      ->capture_default_str();
}

// What the report shows and where it goes: the face's own.
void bind_report_flags(CLI::App& cmd, ScoreFlags& f) {
  cmd.add_flag("--paired", f.paired,
               "Compare the two files on the problems both answer: the difference with a "
               "paired bootstrap 95% interval and McNemar's exact test");
  cmd.add_flag("--by-rule", f.by_rule,
               "Also a table of accuracy per rule (\"Type Progression\", ...) for each file's row");
  cmd.add_flag("--json", f.json, "Print one JSON object instead of the table");
  cmd.add_option("--csv", f.csv, "Write the table as CSV (means, sd, interval ends)");
  cmd.add_option("--chart", f.chart, "Write a PNG bar chart with 95% interval bars");
  cmd.add_option("--title", f.title, "Title of the chart");
  cmd.add_flag("--no-references", f.no_references, "Leave out the solver and context-blind rows");
  cmd.add_option("-j,--jobs", f.threads, "Worker threads reading the set")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
}

}  // namespace

ScoreFlags::ScoreFlags()
    : protocol(evaluation::protocol_name(options.protocol)),
      ties(evaluation::tie_rule_name(options.ties)),
      logprob_score(evaluation::logprob_score_name(options.logprob_score)),
      text_answer(text_answer_word(options.text_answer)),
      nattr(nattr_word(options.nattr)) {}

void bind_score_flags(CLI::App& cmd, ScoreFlags& f) {
  cmd.add_option("predictions", f.predictions, "Predictions files, each as FILE or LABEL=FILE")
      ->required();
  cmd.add_option("--data,-d", f.data,
                 "The set the answers are for: a folder of .xml + .npz (or .asig), or a rave "
                 "export .jsonl file (answers in its shown order)")
      ->required();
  cmd.add_option("--subset", f.subset,
                 "Score only these problems: 'answered' (those each file answers) or a FILE "
                 "(JSON list or one per line: ids, or numbers k = problem k of each "
                 "configuration); default: every problem of the groups a file answers");
  bind_reading_flags(cmd, f);
  cmd.add_flag("--no-intervals", f.no_intervals, "Table cells without the 95% intervals");
  cmd.add_option("--protocol", f.protocol, "multiple-choice | single-candidate")
      ->capture_default_str();
  cmd.add_flag("--seeds", f.seeds,
               "Files with the same label (LABEL=, the \"model\" field, or the name less -seedN) "
               "are seeds of one row");
  cmd.add_option("--answers-shuffled", f.shuffle_seed,
                 "The answers refer to rave export --answers-shuffled SEED");
  bind_report_flags(cmd, f);
}

evaluation::ScoreOptions score_options(const ScoreFlags& f) {
  evaluation::ScoreOptions o = f.options;
  const auto protocol = evaluation::parse_protocol(f.protocol);
  if (!protocol)
    throw UsageError("--protocol must be multiple-choice or single-candidate, not '" + f.protocol +
                     "'");
  const auto ties = evaluation::parse_tie_rule(f.ties);
  if (!ties) throw UsageError("--ties must be split or any, not '" + f.ties + "'");
  const auto logprob_score = evaluation::parse_logprob_score(f.logprob_score);
  if (!logprob_score)
    throw UsageError("--logprob-score must be mean or sum, not '" + f.logprob_score + "'");
  const auto text_answer = evaluation::parse_text_answer(f.text_answer);
  if (!text_answer && f.text_answer != kAuto)
    throw UsageError(
        "--text-answer must be auto, label, letter, index, values or answer-index, not '" +
        f.text_answer + "'");
  o.protocol = *protocol;
  if (f.shuffle_seed)
    o.shuffle_seed = parse_whole_number(*f.shuffle_seed, "--answers-shuffled", 0, UINT64_MAX);
  o.ties = *ties;
  o.logprob_score = *logprob_score;
  o.text_answer = text_answer;
  o.nattr = f.nattr == kAll ? evaluation::kAllNumbers
                            : static_cast<int>(parse_whole_number(f.nattr, "--nattr", 1, 1000));
  if (f.subset == "answered") o.selection = evaluation::Selection::kAnswered;
  if (!f.subset.empty() && f.subset != "answered") o.selection = evaluation::Selection::kSubset;
  return o;
}

}  // namespace rave::cli
