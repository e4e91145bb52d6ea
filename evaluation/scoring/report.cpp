#include "evaluation/scoring/report.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <regex>

#include "common/error.hpp"

namespace rave::evaluation {
namespace {

using Ordered = nlohmann::ordered_json;

std::vector<double> column_values(const FileScore& s) {
  std::vector<double> v{s.total.accuracy()};
  for (const auto& t : s.per_config) v.push_back(t.accuracy());
  return v;
}

// One run's column: its accuracy with the Wilson interval.
Summary tally_summary(const Tally& t) { return binomial_summary(t.correct, t.items()); }

std::string fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

std::string cell(const Summary& s, bool intervals) {
  if (s.n == 0 || std::isnan(s.mean)) return "-";
  if (!intervals || !s.has_interval()) return fixed(s.mean);
  return fixed(s.mean) + " [" + fixed(s.low()) + ", " + fixed(s.high()) + "]";
}

std::string csv_number(double v) { return std::isfinite(v) ? fixed(v) : std::string(); }

// A label or note as one CSV field (quoted when it holds a comma or a quote).
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// ",mean,sd,low,high" (empty fields where undefined).
void append_csv_summary(std::string& out, const Summary& s) {
  const bool interval = s.has_interval();
  for (const double v :
       {s.n ? s.mean : NAN, s.sd, interval ? s.low() : NAN, interval ? s.high() : NAN}) {
    out += ',';
    out += csv_number(v);
  }
}

// " text |": one Markdown cell after the row's opening bar.
void append_cell(std::string& out, const std::string& text) {
  out += ' ';
  out += text;
  out += " |";
}

Ordered number_or_null(double v) { return std::isfinite(v) ? Ordered(v) : Ordered(nullptr); }

Ordered summary_json(const Summary& s) {
  const bool interval = s.has_interval();
  return {{"mean", number_or_null(s.n ? s.mean : NAN)},
          {"sd", number_or_null(s.sd)},
          {"ci95", interval ? Ordered::array({s.low(), s.high()}) : Ordered(nullptr)},
          {"interval", interval ? Ordered(interval_name(s.interval)) : Ordered(nullptr)},
          {"n", s.n}};
}

Ordered row_json(const ReportRow& r) {
  const auto names = report_columns();
  Ordered per = Ordered::object();
  for (std::size_t c = 1; c < names.size(); ++c) per[names[c]] = summary_json(r.columns[c]);
  return {{"label", r.label},
          {"note", r.note},
          {"seeds", r.seeds},
          {"accuracy", summary_json(r.columns[0])},
          {"per_configuration", std::move(per)},
          {"unique_accuracy", summary_json(r.unique)},
          {"scored", r.scored},
          {"missing", r.missing},
          {"unknown", r.unknown},
          {"evaluated", r.evaluated},
          {"skipped", r.skipped},
          {"replies", r.texts},
          {"unreadable", r.unreadable},
          {"participants", r.participants},
          {"unanswered", r.unanswered}};
}

// Counts a participant's file into a row (nothing for a model's file).
void count_participant(const FileScore& s, ReportRow& r) {
  if (!s.participant) return;
  r.participants += s.total.scored > 0 ? 1 : 0;
  r.unanswered += s.unanswered;
}

}  // namespace

std::vector<std::string> report_columns() {
  std::vector<std::string> names{"Avg"};
  for (const auto& c : engine::all_configurations()) names.emplace_back(c.paper_name);
  return names;
}

ReportRow file_row(const FileScore& score, std::string note) {
  ReportRow r{.label = score.label,
              .note = std::move(note),
              .seeds = 1,
              .columns = {},
              .unique = {},
              .scored = score.total.scored,
              .missing = score.total.missing,
              .unknown = score.unknown,
              .unknown_ids = score.unknown_ids};
  r.columns.push_back(tally_summary(score.total));
  for (const auto& t : score.per_config) r.columns.push_back(tally_summary(t));
  r.unique = tally_summary(score.unique);
  r.evaluated = score.total.items();
  r.skipped = score.skipped;
  r.texts = score.texts, r.unreadable = score.unreadable;
  r.credits = score.credits;
  r.seconds = score.seconds;
  count_participant(score, r);
  if (score.participant)
    r.note = participants_note(r.participants, r.scored, r.unanswered) + "; " + r.note;
  return r;
}

std::string participants_note(int participants, int answers, int unanswered) {
  std::string note = std::to_string(participants) +
                     (participants == 1 ? " participant, " : " participants, ") +
                     std::to_string(answers) + (answers == 1 ? " answer" : " answers");
  if (unanswered) note += ", " + std::to_string(unanswered) + " shown unanswered";
  return note;
}

ReportRow seeds_row(std::string label, const std::vector<FileScore>& scores) {
  RAVE_CHECK(!scores.empty(), "a seeds row needs at least one file");
  ReportRow r{.label = std::move(label),
              .note = std::to_string(scores.size()) + " seeds",
              .seeds = static_cast<int>(scores.size()),
              .columns = {},
              .unique = {}};
  const std::size_t columns = report_columns().size();
  std::vector<std::vector<double>> values(columns);
  std::vector<double> unique;
  for (const auto& s : scores) {
    const auto v = column_values(s);
    for (std::size_t c = 0; c < columns; ++c) values[c].push_back(v[c]);
    unique.push_back(s.unique.accuracy());
    r.scored += s.total.scored, r.missing += s.total.missing, r.unknown += s.unknown;
    r.skipped += s.skipped;
    r.texts += s.texts, r.unreadable += s.unreadable;
    r.unknown_ids.insert(r.unknown_ids.end(), s.unknown_ids.begin(), s.unknown_ids.end());
    for (std::size_t c = 0; c < r.seconds.size(); ++c)
      r.seconds[c].insert(r.seconds[c].end(), s.seconds[c].begin(), s.seconds[c].end());
    count_participant(s, r);
  }
  for (const auto& v : values) r.columns.push_back(summarize(v, 0, 100));
  r.unique = summarize(unique, 0, 100);
  r.evaluated = scores.front().total.items();
  if (r.participants) r.note = participants_note(r.participants, r.scored, r.unanswered);
  return r;
}

std::string file_label(const std::string& given, const PredictionFile& file) {
  if (!given.empty()) return given;
  if (!file.model.empty()) return file.model;
  static const std::regex seed_suffix("[-_.]seed[0-9]+$");
  return std::regex_replace(std::filesystem::path(file.file).stem().string(), seed_suffix, "");
}

Report build_report(const AnswerKey& key, const std::vector<LabeledFile>& files,
                    const ScoreOptions& options, bool seeds, bool references) {
  struct Group {
    std::string label, first_file;
    std::vector<FileScore> scores;
  };
  std::vector<Group> groups;
  std::vector<std::uint8_t> evaluated(key.items().size(), 0);
  for (const auto& f : files) {
    FileScore s = score_file(key, f.file, options);
    for (std::size_t i = 0; i < evaluated.size(); ++i) evaluated[i] |= s.evaluated[i];
    s.label = f.label;
    const auto same = std::find_if(groups.begin(), groups.end(),
                                   [&](const Group& g) { return g.label == f.label; });
    if (seeds && same != groups.end())
      same->scores.push_back(std::move(s));
    else
      groups.push_back({f.label, f.file.file, {std::move(s)}});
  }
  Report report{.protocol = std::string(protocol_name(options.protocol)),
                .data = key.root().string()};
  for (const Group& g : groups)
    report.rows.push_back(g.scores.size() == 1 ? file_row(g.scores[0], g.first_file)
                                               : seeds_row(g.label, g.scores));
  references = references && key.has_references();
  if (references) {
    report.rows.push_back(file_row(player_score(key, evaluated, Player::kSolver),
                                   "rave solve (heuristic), rules inferred"));
    report.rows.push_back(file_row(player_score(key, evaluated, Player::kContextBlind),
                                   "docs/answer-sets.md, no matrix"));
  }
  report.outside =
      static_cast<int>(std::count(evaluated.begin(), evaluated.end(), std::uint8_t{0}));
  report.set_items = static_cast<int>(std::count_if(
      key.items().begin(), key.items().end(), [](const Item& i) { return i.answer.has_value(); }));
  report.selection = options.selection == Selection::kGroups     ? "groups"
                     : options.selection == Selection::kAnswered ? "answered"
                                                                 : "subset";
  report.references = references;
  report.text_answer = options.text_answer.value_or(key.text_answer());
  return report;
}

namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string seconds_text(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", s);
  return text;
}

// "time per problem of Human (median s over 84 answers): 12.3; Center 8.1, 2x2Grid 14.0, ...", or
// "" when the row has no times.
std::string times_line(const ReportRow& r) {
  std::vector<double> all;
  std::string parts;
  const auto names = report_columns();
  for (std::size_t c = 0; c < r.seconds.size(); ++c) {
    if (r.seconds[c].empty()) continue;
    all.insert(all.end(), r.seconds[c].begin(), r.seconds[c].end());
    parts +=
        (parts.empty() ? "" : ", ") + names[c + 1] + " " + seconds_text(median_of(r.seconds[c]));
  }
  if (all.empty()) return "";
  return "time per problem of " + r.label + " (median s over " + std::to_string(all.size()) +
         " answers): " + seconds_text(median_of(all)) + "; " + parts + "\n";
}

// "replies of GPT: 700 read as labels 1..8 (--text-answer label), 3 named no candidate (counted
// wrong)", or "" when the row has no replies.
std::string replies_line(const ReportRow& r, TextAnswer mode) {
  if (r.texts == 0) return "";
  static constexpr const char* kForms[] = {"candidate indices 0..7 (IBM's first number)",
                                           "panel values (IBM's find_best_match)", "labels 1..8",
                                           "letters A..H", "answer indices 0..7 (\"Answer #k\")"};
  return "replies of " + r.label + ": " + std::to_string(r.texts) + " read as " +
         kForms[static_cast<int>(mode)] + " (--text-answer " + std::string(text_answer_name(mode)) +
         "), " + std::to_string(r.unreadable) +
         (mode == TextAnswer::kLabel || mode == TextAnswer::kLetter ||
                  mode == TextAnswer::kAnswerIndex
              ? " named no candidate (counted wrong)\n"
              : " held no number in the form (read as candidate 0, IBM's rule)\n");
}

}  // namespace

std::string report_table(const Report& report) {
  std::string out = "| model |";
  for (const auto& name : report_columns()) append_cell(out, name);
  out += " unique | scored | missing | unknown | note |\n";
  // The markdown rule: the model's column, then the numbers' (right-aligned), then the note.
  const std::string left = "|---", right = "|---:";
  out += left;
  for (std::size_t i = 0; i <= report_columns().size() + 3; ++i) out += right;
  out += left + "|\n";
  for (const auto& r : report.rows) {
    out += '|';
    append_cell(out, r.label);
    for (const auto& s : r.columns) append_cell(out, cell(s, report.intervals));
    append_cell(out, cell(r.unique, report.intervals));
    for (int n : {r.scored, r.missing, r.unknown}) append_cell(out, std::to_string(n));
    append_cell(out, r.note);
    out += '\n';
  }
  for (const auto& r : report.rows) out += times_line(r) + replies_line(r, report.text_answer);
  return out;
}

std::string report_csv(const Report& report) {
  std::string out = "model,note,seeds";
  auto names = report_columns();
  names.emplace_back("unique");
  for (const auto& n : names)
    out.append(",")
        .append(n)
        .append(",")
        .append(n)
        .append("_sd,")
        .append(n)
        .append("_ci95_low,")
        .append(n)
        .append("_ci95_high");
  out += ",scored,missing,unknown,interval\n";
  for (const auto& r : report.rows) {
    out += csv_field(r.label) + "," + csv_field(r.note) + "," + std::to_string(r.seeds);
    for (const auto& s : r.columns) append_csv_summary(out, s);
    append_csv_summary(out, r.unique);
    for (int n : {r.scored, r.missing, r.unknown}) {
      out += ',';
      out += std::to_string(n);
    }
    out += ',';
    out += interval_name(r.columns.front().interval);
    out += '\n';
  }
  return out;
}

std::string report_json(const Report& report) {
  RAVE_CHECK(!report.rows.empty(), "a report has at least one row");
  const ReportRow& first = report.rows.front();
  const auto names = report_columns();
  Ordered per = Ordered::object();
  for (std::size_t c = 1; c < names.size(); ++c)
    per[names[c]] = number_or_null(first.columns[c].n ? first.columns[c].mean : NAN);
  Ordered out{{"protocol", report.protocol},
              {"data", report.data},
              {"accuracy", number_or_null(first.columns[0].n ? first.columns[0].mean : NAN)},
              {"per_configuration", std::move(per)},
              {"unique_accuracy", number_or_null(first.unique.n ? first.unique.mean : NAN)},
              {"scored", first.scored},
              {"missing", first.missing},
              {"unknown", first.unknown},
              {"unreadable", first.unreadable},
              {"outside", report.outside},
              {"evaluated", first.evaluated},
              {"set_items", report.set_items},
              {"selection", report.selection},
              {"participants", first.participants},
              {"unanswered", first.unanswered},
              {"rows", Ordered::array()}};
  for (const auto& r : report.rows) out["rows"].push_back(row_json(r));
  return out.dump(2) + "\n";
}

}  // namespace rave::evaluation
