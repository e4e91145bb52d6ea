#include "evaluation/scoring/predictions.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/lines.hpp"
#include "evaluation/scoring/score_forms.hpp"

namespace rave::evaluation {
namespace {

using Json = nlohmann::json;

std::string at_line(std::size_t line) { return "line " + std::to_string(line); }

bool blank(std::string_view line) {
  return std::all_of(line.begin(), line.end(), [](char c) { return c == ' ' || c == '\t'; });
}

std::optional<int> json_answer(const Json& value, const std::string& file, std::size_t line) {
  if (value.is_null()) return std::nullopt;
  if (!value.is_number_integer())
    throw InputError(file, at_line(line),
                     "\"answer\" must be a candidate index (an integer), got " + value.dump());
  // Compared as written: 2^63 read as int64 would wrap to a negative number.
  if (value.is_number_unsigned() ? value.get<std::uint64_t>() > 1'000'000
                                 : value.get<std::int64_t>() < 0)
    throw InputError(file, at_line(line), "answer " + value.dump() + " is not a candidate index");
  return static_cast<int>(value.get<std::int64_t>());
}

std::vector<double> json_scores(const Json& value, const std::string& file, std::size_t line) {
  if (!value.is_array())
    throw InputError(file, at_line(line), "\"scores\" must be a list of numbers");
  if (value.empty())
    throw InputError(file, at_line(line), "\"scores\" is empty: one score per candidate");
  std::vector<double> scores;
  for (const Json& s : value) {
    if (!s.is_number() || !std::isfinite(s.get<double>()))
      throw InputError(file, at_line(line),
                       "\"scores\" must be a list of finite numbers, got " + s.dump());
    scores.push_back(s.get<double>());
  }
  return scores;
}

// One token list: numbers, or lm-raven's {"token_logprobs": [...]} record.
std::vector<double> token_list(const Json& value, const std::string& file, std::size_t line) {
  const Json& list =
      value.is_object() && value.contains("token_logprobs") ? value.at("token_logprobs") : value;
  if (!list.is_array())
    throw InputError(file, at_line(line), "\"logprobs\": a token list must be a list of numbers");
  std::vector<double> out;
  for (const Json& t : list) {
    if (!t.is_number() || !std::isfinite(t.get<double>()))
      throw InputError(
          file, at_line(line),
          "\"logprobs\": a token log-probability must be a finite number, got " + t.dump());
    out.push_back(t.get<double>());
  }
  return out;
}

// "logprobs": a list of token lists (one prompt) or a list of such lists (one per sub-prompt).
std::vector<std::vector<std::vector<double>>> json_logprobs(const Json& value,
                                                            const std::string& file,
                                                            std::size_t line) {
  if (!value.is_array() || value.empty())
    throw InputError(file, at_line(line), "\"logprobs\" must be a non-empty list");
  const Json& first = value.front();
  const bool nested =
      first.is_array() && !first.empty() && (first.front().is_array() || first.front().is_object());
  std::vector<std::vector<std::vector<double>>> out;
  for (const Json& sub : nested ? value : Json::array({value})) {
    if (!sub.is_array())
      throw InputError(file, at_line(line), "\"logprobs\": a sub-prompt must be a list");
    auto& lists = out.emplace_back();
    for (const Json& tokens : sub) lists.push_back(token_list(tokens, file, line));
  }
  return out;
}

// "text": one generated string, or a list of them (samples, IBM's nreturn).
std::vector<std::string> json_texts(const Json& value, const std::string& file, std::size_t line) {
  std::vector<std::string> out;
  for (const Json& t : value.is_array() ? value : Json::array({value})) {
    if (!t.is_string())
      throw InputError(file, at_line(line), "\"text\" must be a string or a list of strings");
    out.push_back(t.get<std::string>());
  }
  if (out.empty()) throw InputError(file, at_line(line), "\"text\" is an empty list");
  return out;
}

// An attribute answer's value: a number or a list of numbers, or replies: a string or a list of
// strings (read by the scorer, after the answer queue).
AttributeAnswer attribute_answer(std::string component, std::string attribute, const Json& v,
                                 const std::string& name, const std::string& file,
                                 std::size_t line) {
  AttributeAnswer a{.component = std::move(component), .attribute = std::move(attribute)};
  const auto all = [&](bool (Json::*is)() const noexcept) {
    return std::all_of(v.begin(), v.end(), [&](const Json& x) { return (x.*is)(); });
  };
  if (v.is_number()) {
    a.value = {v.get<double>()};
  } else if (v.is_string()) {
    a.samples = {v.get<std::string>()};
  } else if (v.is_array() && all(&Json::is_number)) {  // [] too: no number, as IBM's NaN: 0
    for (const Json& x : v) a.value.push_back(x.get<double>());
  } else if (v.is_array() && !v.empty() && all(&Json::is_string)) {
    for (const Json& x : v) a.samples.push_back(x.get<std::string>());
  } else {
    throw InputError(file, at_line(line),
                     "\"attributes\": " + name +
                         " must be a number, a list of numbers, a reply or a list of replies "
                         "(strings), got " +
                         v.dump());
  }
  return a;
}

// "attributes": {"type": v, ...} or per component {"Left": {"type": v, ...}, ...}.
std::vector<AttributeAnswer> json_attributes(const Json& value, const std::string& file,
                                             std::size_t line) {
  if (!value.is_object() || value.empty())
    throw InputError(file, at_line(line), "\"attributes\" must be a non-empty object");
  std::vector<AttributeAnswer> out;
  for (const auto& [key, v] : value.items()) {
    if (!v.is_object()) {
      out.push_back(attribute_answer("", key, v, key, file, line));
      continue;
    }
    for (const auto& [attribute, x] : v.items()) {
      std::string where = key;
      where += '/';
      where += attribute;
      out.push_back(attribute_answer(key, attribute, x, where, file, line));
    }
  }
  return out;
}

Json json_object(std::string_view text, const std::string& file, std::size_t line) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::parse_error& e) {
    throw InputError(file, at_line(line),
                     "not a JSON object (syntax error at column " + std::to_string(e.byte) + ")");
  } catch (const Json::out_of_range&) {  // 1e400: beyond a double
    throw InputError(file, at_line(line), "a number too large to read (beyond a double)");
  }
  if (!j.is_object()) throw InputError(file, at_line(line), "not a JSON object");
  return j;
}

Prediction json_prediction(const Json& j, const std::string& file, std::size_t line) {
  Prediction p{.line = line};
  const auto id = j.contains("id") ? j.find("id") : j.find("file");
  if (id == j.end() || !id->is_string())
    throw InputError(file, at_line(line), "no \"id\" (or \"file\") string");
  p.id = id->get<std::string>();
  const bool has_answer = j.contains("answer"), has_scores = j.contains("scores");
  const bool has_other = j.contains("logprobs") || j.contains("text") || j.contains("attributes");
  if (!has_answer && !has_scores && !has_other)
    throw InputError(file, at_line(line),
                     "no \"answer\", \"scores\", \"logprobs\", \"text\" or \"attributes\"");
  if (has_answer) p.answer = json_answer(j.at("answer"), file, line);
  if (has_scores) p.scores = json_scores(j.at("scores"), file, line);
  if (j.contains("answers_shuffled")) {
    const Json& seed = j.at("answers_shuffled");
    if (!seed.is_number_unsigned())
      throw InputError(file, at_line(line),
                       "\"answers_shuffled\" must be a seed (an integer >= 0), got " + seed.dump());
    p.answers_shuffled = seed.get<std::uint64_t>();
  }
  if (j.contains("logprobs")) p.logprobs = json_logprobs(j.at("logprobs"), file, line);
  if (j.contains("text")) p.texts = json_texts(j.at("text"), file, line);
  if (j.contains("attributes")) p.attributes = json_attributes(j.at("attributes"), file, line);
  if (j.contains("seconds")) {
    const Json& seconds = j.at("seconds");
    if (!seconds.is_number() || seconds.get<double>() < 0)
      throw InputError(file, at_line(line),
                       "\"seconds\" must be a time (a number >= 0), got " + seconds.dump());
    p.seconds = seconds.get<double>();
  }
  return p;
}

// A line's "participant" (an id >= 1), or nullopt when it has none.
std::optional<std::int64_t> json_participant(const Json& j, const std::string& file,
                                             std::size_t line) {
  if (!j.contains("participant")) return std::nullopt;
  const Json& v = j.at("participant");
  // A JSON integer >= 0 reads as unsigned; a negative one as signed, and so is refused here.
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (!v.is_number_unsigned() || v.get<std::uint64_t>() < 1 || v.get<std::uint64_t>() > kMax)
    throw InputError(
        file, at_line(line),
        "\"participant\" must be a participant's number (an integer >= 1), got " + v.dump());
  return v.get<std::int64_t>();
}

// A study participant's file names one participant on every line: a line that names none, or
// another, is an error (two files merged, or a line edited).
void check_participant(PredictionFile& out, std::optional<std::int64_t> participant,
                       std::size_t number, std::size_t first_line) {
  if (out.predictions.size() == 1) {
    out.participant = participant;
    return;
  }
  if (participant == out.participant) return;
  const auto name = [](std::optional<std::int64_t> p) {
    return p ? "participant " + std::to_string(*p) : std::string("no participant");
  };
  throw InputError(out.file, at_line(number),
                   name(participant) + ", but line " + std::to_string(first_line) + " gives " +
                       name(out.participant) + " (a study export holds one participant per file)");
}

PredictionFile parse_json_lines(std::string_view text, const std::string& file) {
  PredictionFile out{file, "", {}};
  std::size_t first_line = 0;
  for (const TextLine& entry : text_lines(text)) {
    const std::string_view line = entry.text;
    const std::size_t number = entry.number;
    if (blank(line)) continue;
    const Json j = json_object(line, file, number);
    out.predictions.push_back(json_prediction(j, file, number));
    if (out.predictions.size() == 1) first_line = number;
    check_participant(out, json_participant(j, file, number), number, first_line);
    if (out.predictions.size() == 1 && j.contains("model") && j.at("model").is_string())
      out.model = j.at("model").get<std::string>();
  }
  return out;
}

// One CSV record: comma-separated fields, a field may be double-quoted with "" for a quote.
std::vector<std::string> csv_fields(std::string_view line, const std::string& file,
                                    std::size_t number) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
      fields.back() += '"', ++i;
    else if (c == '"' && (quoted || fields.back().empty()))
      quoted = !quoted;
    else if (c == ',' && !quoted)
      fields.emplace_back();
    else
      fields.back() += c;
  }
  if (quoted) throw InputError(file, at_line(number), "unterminated quoted field");
  return fields;
}

// The columns a CSV header names: the id, the answer and the scores (npos when absent).
struct CsvColumns {
  std::size_t id = std::string::npos, answer = std::string::npos;
  std::vector<std::size_t> scores;
};

CsvColumns csv_columns(const std::vector<std::string>& header) {
  CsvColumns c;
  std::vector<std::pair<int, std::size_t>> scores;
  for (std::size_t i = 0; i < header.size(); ++i) {
    const std::string& name = header[i];
    if (name == "id" || (name == "file" && c.id == std::string::npos)) c.id = i;
    if (name == "answer") c.answer = i;
    if (name.rfind("score_", 0) == 0) scores.emplace_back(std::atoi(name.c_str() + 6), i);
  }
  std::sort(scores.begin(), scores.end());
  for (std::size_t k = 0; k < scores.size(); ++k)
    if (scores[k].first == static_cast<int>(k)) c.scores.push_back(scores[k].second);
  return c;
}

template <class T>
T csv_number(const std::string& field, const std::string& file, std::size_t line,
             const char* what) {
  T value{};
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (ec != std::errc() || end != field.data() + field.size())
    throw InputError(file, at_line(line), std::string(what) + " '" + field + "' is not a number");
  return value;
}

Prediction csv_prediction(const std::vector<std::string>& f, const CsvColumns& c,
                          const std::string& file, std::size_t line) {
  Prediction p{.id = f[c.id], .line = line};
  if (c.answer != std::string::npos && !f[c.answer].empty()) {
    const int answer = csv_number<int>(f[c.answer], file, line, "answer");
    if (answer < 0)
      throw InputError(file, at_line(line), "answer " + f[c.answer] + " is not a candidate index");
    p.answer = answer;
  }
  for (std::size_t k : c.scores) p.scores.push_back(csv_number<double>(f[k], file, line, "score"));
  return p;
}

PredictionFile parse_csv(std::string_view text, const std::string& file) {
  PredictionFile out{file, "", {}};
  std::optional<CsvColumns> columns;
  std::size_t width = 0;
  for (const TextLine& entry : text_lines(text)) {
    const std::string_view line = entry.text;
    const std::size_t number = entry.number;
    if (blank(line)) continue;
    const auto fields = csv_fields(line, file, number);
    if (!columns) {
      columns = csv_columns(fields), width = fields.size();
      if (columns->id == std::string::npos ||
          (columns->answer == std::string::npos && columns->scores.empty()))
        throw InputError(file, at_line(number),
                         "neither JSON Lines (one JSON object per line) nor CSV with a header "
                         "naming an id and an "
                         "answer (or score_0, score_1, ...) column");
      continue;
    }
    if (fields.size() != width)
      throw InputError(
          file, at_line(number),
          std::to_string(fields.size()) + " fields, but the header has " + std::to_string(width));
    out.predictions.push_back(csv_prediction(fields, *columns, file, number));
  }
  return out;
}

}  // namespace

std::string prediction_line(const Prediction& p, const std::string& model,
                            std::optional<std::int64_t> participant) {
  using Ordered = nlohmann::ordered_json;
  Ordered j{{"id", p.id}, {"answer", p.answer ? Ordered(*p.answer) : Ordered(nullptr)}};
  if (!p.scores.empty()) j["scores"] = p.scores;
  if (p.seconds) j["seconds"] = *p.seconds;
  if (!model.empty()) j["model"] = model;
  if (participant) j["participant"] = *participant;
  return j.dump();
}

PredictionFile parse_predictions(std::string_view text, const std::string& file) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a UTF-8 byte order mark
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) throw InputError(file, "", "empty: no predictions");
  return text[first] == '{' ? parse_json_lines(text, file) : parse_csv(text, file);
}

PredictionFile read_predictions(const std::filesystem::path& path) {
  return parse_predictions(read_file(path), path.string());
}

}  // namespace rave::evaluation
