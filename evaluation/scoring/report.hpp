#pragma once
// The report of `rave score` (docs/evaluation.md): one row per predictions file, or per group of
// files when they are seeds of one model (mean, sample standard deviation and a t-based 95%
// interval per column clipped to [0, 100]; one run gets the Wilson interval, stats.hpp), then the
// reference players on the same items (the solver's ceiling and the context-blind shortcut).
// Columns: Avg (pooled over the evaluated items), the seven configurations in the paper's order,
// the provably unique items. Rendered as a Markdown table, CSV, one JSON object, or the data of a
// grouped bar chart.
//
//   Report r{.protocol = "multiple-choice", .data = "data/raven"};
//   r.rows.push_back(file_row(score));                 // or seeds_row("CNN", {s1, s2, s3})
//   std::puts(report_table(r).c_str());
#include <string>
#include <vector>

#include "evaluation/scoring/score.hpp"
#include "evaluation/scoring/stats.hpp"

namespace rave::evaluation {

/// One row: a file, a model over seeds, or a reference player.
struct ReportRow {
  std::string label = {};
  std::string note = {};              ///< the file, "3 seeds", "rave solve (heuristic)", ...
  int seeds = 1;                      ///< files summarized
  std::vector<Summary> columns = {};  ///< Avg, then one per configuration (paper order), in percent
  Summary unique = {};                ///< accuracy on the provably unique items, in percent
  int scored = 0, missing = 0, unknown = 0;  ///< summed over the row's files
  int evaluated = 0;   ///< problems a file of the row is scored on (scored + missing of one file)
  int skipped = 0;     ///< lines outside the selection, summed over the row's files
  int texts = 0;       ///< answers given as a reply ("text"), summed over the row's files
  int unreadable = 0;  ///< of those, replies that named no candidate in the form asked (wrong)
  std::vector<double> credits = {};  ///< a one-file row's FileScore::credits (empty over seeds)
  /// Study participants (files with "participant" and an answer) the row rests on, and the
  /// problems shown to them that they left unanswered (not scored); 0 for a model's row.
  int participants = 0, unanswered = 0;
  std::vector<std::string> unknown_ids = {};  ///< the first few unknown ids of its files
  /// The row's answer times (its files' "seconds"), per configuration (paper order); empty when
  /// no answer gave one.
  std::array<std::vector<double>, engine::kNumConfigs> seconds = {};
};

/// The whole report.
struct Report {
  std::string protocol = {};  ///< protocol_name()
  std::string data = {};      ///< the set's folder
  std::vector<ReportRow> rows = {};
  int outside = 0;                              ///< items of the set no file's selection holds
  int set_items = 0;                            ///< items of the set with a known answer
  std::string selection = {};                   ///< "groups", "answered" or "subset FILE"
  bool intervals = true;                        ///< table cells carry the 95% interval
  bool references = true;                       ///< the key knew the reference players' answers
  TextAnswer text_answer = TextAnswer::kLabel;  ///< how the rows' "text" replies were read
};

/// A predictions file and the label of the row it belongs to.
struct LabeledFile {
  std::string label = {};
  PredictionFile file = {};
};
/// The label of a file: `given` when not empty, else the file's "model", else its name without
/// extension and without a trailing "-seedN" / "_seedN" / ".seedN".
std::string file_label(const std::string& given, const PredictionFile& file);

/// Scores every file: one row per file, or with `seeds` one row per label (files sharing a label
/// are seeds of one model, in order of first appearance); then, with `references`, the solver's and
/// the context-blind rows on the items any file evaluated.
Report build_report(const AnswerKey& key, const std::vector<LabeledFile>& files,
                    const ScoreOptions& options, bool seeds, bool references);

/// Column names: "Avg", then the configurations' paper names.
std::vector<std::string> report_columns();
/// A row from one file's score (each Summary has n = 1 and the Wilson interval).
ReportRow file_row(const FileScore& score, std::string note);
/// A row from several seeds' scores of one model, or from several participants of a study (the
/// mean over participants, each on the problems they answered; note "3 participants, 74 answers").
ReportRow seeds_row(std::string label, const std::vector<FileScore>& scores);
/// "3 participants, 74 answers" (", 10 shown unanswered" when some are): a study row's note.
std::string participants_note(int participants, int answers, int unanswered);

/// Markdown: one line per row; cells are "mean [low, high]" (the 95% interval: Wilson for one
/// run, t over seeds clipped to [0, 100]), or "mean" without intervals. Rows whose answers carry
/// times get a line after the table: the median seconds per problem, overall and per configuration;
/// rows answered by replies ("text") a line with how they were read and how many named nothing.
std::string report_table(const Report& report);
/// CSV: per column the mean, sd, and interval ends (empty where undefined).
std::string report_csv(const Report& report);
/// One JSON object: the first row's "accuracy" (Avg, %), "per_configuration", "unique_accuracy",
/// "scored", "missing", "unknown", "participants", "unanswered", and "rows" with every row in full.
std::string report_json(const Report& report);

}  // namespace rave::evaluation
