// The answer key of a `rave export` JSON Lines file (AnswerKey::load on a .jsonl file): every line
// gives id, configuration, split, answer (in the shown order), verdict and, when shuffled,
// answers_shuffled. The json form carries the problem, so its lines also give the reference
// players' answers and the candidates' values; the text forms give the values from their
// "choices" and "prompts" (the texts the model saw) and no reference players.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <unordered_map>

#include "common/error.hpp"
#include "engine/audit.hpp"
#include "evaluation/internal/problem_json.hpp"
#include "evaluation/scoring/score.hpp"
#include "solver/heuristic.hpp"

namespace rave::evaluation {
namespace {

using Json = nlohmann::json;

std::string at_line(std::size_t line) { return "line " + std::to_string(line); }

const Json& member(const Json& j, const char* name, const std::string& file, std::size_t line) {
  if (!j.contains(name))
    throw InputError(file, at_line(line), std::string("no \"") + name + "\" (an export line?)");
  return j.at(name);
}

std::string string_member(const Json& j, const char* name, const std::string& file,
                          std::size_t line) {
  const Json& v = member(j, name, file, line);
  if (!v.is_string())
    throw InputError(file, at_line(line), std::string("\"") + name + "\" must be a string");
  return v.get<std::string>();
}

solver::Verdict verdict_named(const std::string& name, const std::string& file, std::size_t line) {
  for (const auto v : {solver::Verdict::kUnique, solver::Verdict::kAmbiguous,
                       solver::Verdict::kUnknown, solver::Verdict::kNone})
    if (solver::verdict_name(v) == name) return v;
  throw InputError(file, at_line(line), "\"verdict\" '" + name + "' is no verdict");
}

// The texts of a list of strings (an export's "choices").
std::vector<std::vector<double>> numbers_of(const Json& choices) {
  std::vector<std::vector<double>> out;
  for (const Json& c : choices)
    out.push_back(text2num(c.is_string() ? c.get<std::string>() : "", ""));
  return out;
}

// The candidate values a text-form line shows: "choices" (entangled), "prompts" (disentangled).
CandidateValues text_values(const Json& j) {
  CandidateValues v;
  if (j.contains("choices") && j.at("choices").is_array())
    v.entangled = numbers_of(j.at("choices"));
  if (j.contains("prompts") && j.at("prompts").is_array())
    for (const Json& p : j.at("prompts")) {
      if (!p.is_object() || !p.contains("choices")) continue;
      v.branches.push_back(p.value("component", "") + "/" + p.value("attribute", ""));
      v.branch.push_back(numbers_of(p.at("choices")));
    }
  if (v.entangled.empty() && !v.branch.empty()) v.entangled.resize(v.branch.front().size());
  return v;
}

int candidate_count(const Json& j, const CandidateValues& v) {
  if (j.contains("candidates") && j.at("candidates").is_array())
    return static_cast<int>(j.at("candidates").size());
  if (!v.entangled.empty()) return static_cast<int>(v.entangled.size());
  return engine::kCandidates;
}

// One line of the key as JSON; InputError unless it is an object.
Json line_object(const std::string& line, const std::string& file, std::size_t number) {
  Json j;
  try {
    j = Json::parse(line);
  } catch (const Json::parse_error& e) {
    throw InputError(file, at_line(number),
                     "not a JSON object (syntax error at column " + std::to_string(e.byte) + ")");
  }
  if (!j.is_object()) throw InputError(file, at_line(number), "not a JSON object");
  return j;
}

// The item's id, configuration, split and verdict.
Item item_fields(const Json& j, const std::string& file, std::size_t number) {
  Item item{.id = string_member(j, "id", file, number)};
  const std::string config = string_member(j, "configuration", file, number);
  const auto id = engine::find_configuration(config);
  if (!id) throw InputError(file, at_line(number), "unknown configuration '" + config + "'");
  item.config = *id;
  item.split = string_member(j, "split", file, number);
  item.verdict = verdict_named(string_member(j, "verdict", file, number), file, number);
  return item;
}

// The answer, when the line gives one: an index among the item's candidates.
std::optional<int> answer_of(const Json& j, const Item& item, const std::string& file,
                             std::size_t number) {
  if (!j.contains("answer") || !j.at("answer").is_number_integer()) return std::nullopt;
  const int answer = j.at("answer").get<int>();
  if (answer < 0 || answer >= item.candidates)
    throw InputError(file, at_line(number),
                     "answer " + std::to_string(answer) + " is outside 0.." +
                         std::to_string(item.candidates - 1));
  return answer;
}

std::optional<std::uint64_t> shown_order_of(const Json& j, const std::string& file,
                                            std::size_t number) {
  if (!j.contains("answers_shuffled")) return std::nullopt;
  if (!j.at("answers_shuffled").is_number_unsigned())
    throw InputError(file, at_line(number), "\"answers_shuffled\" must be an integer >= 0");
  return j.at("answers_shuffled").get<std::uint64_t>();
}

// What the lines give, for the key.
struct KeyParts {
  std::vector<Item> items;
  std::vector<std::optional<std::uint64_t>> shown;
  std::vector<CandidateValues> values;
  bool references = true;
  std::string style;
  bool pred = false;
};

// The key read line by line.
class ExportKeyReader {
 public:
  ExportKeyReader(std::string file, KeyNeeds needs) : file_(std::move(file)), needs_(needs) {}
  void read(const std::string& line, std::size_t number);
  // InputError unless some line was read and some line has an answer.
  KeyParts finish() &&;

 private:
  // The json form's problem: the reference players (when wanted), rules and values.
  void read_problem(const Json& j, std::size_t number, Item& item, CandidateValues& v);
  std::string file_;
  KeyNeeds needs_;
  solver::HeuristicSolver solver_;
  KeyParts key_;
  std::unordered_map<std::string, std::size_t> first_line_;
};

void ExportKeyReader::read_problem(const Json& j, std::size_t number, Item& item,
                                   CandidateValues& v) {
  if (!j.contains("candidates")) {  // a text form: no problem, no reference players
    key_.references = false;
    return;
  }
  const engine::Problem p = internal::problem_from_fields(j, {file_, number});
  if (needs_.references)
    item.solver_answer = solver_.solve(p).answer.value_or(-1);
  else
    item.solver_answer = -1, key_.references = false;
  item.blind_answer = engine::context_blind_choice(p.candidates);
  item.rules = rule_labels(p);
  if (needs_.values) v = candidate_values(p);
}

void ExportKeyReader::read(const std::string& line, std::size_t number) {
  if (line.find_first_not_of(" \t\r") == std::string::npos) return;
  const Json j = line_object(line, file_, number);
  Item item = item_fields(j, file_, number);
  if (key_.style.empty() && j.contains("style") && j.at("style").is_string())
    key_.style = j.at("style").get<std::string>();
  if (j.contains("classmode") && j.at("classmode") == "pred") key_.pred = true;
  CandidateValues v = text_values(j);
  item.candidates = candidate_count(j, v);
  item.answer = answer_of(j, item, file_, number);
  read_problem(j, number, item, v);
  key_.shown.push_back(shown_order_of(j, file_, number));
  if (needs_.values && v.entangled.empty())
    throw InputError(file_, at_line(number),
                     "no candidate values (\"text\" and \"attributes\" answers need the json, "
                     "text or text-disentangled form)");
  if (const auto [it, fresh] = first_line_.emplace(item.id, number); !fresh)
    throw InputError(
        file_, at_line(number),
        "a second line for " + item.id + " (the first is line " + std::to_string(it->second) + ")");
  key_.items.push_back(std::move(item));
  if (needs_.values) key_.values.push_back(std::move(v));
}

KeyParts ExportKeyReader::finish() && {
  if (key_.items.empty()) throw InputError(file_, "", "no export lines");
  if (std::none_of(key_.items.begin(), key_.items.end(),
                   [](const Item& i) { return i.answer.has_value(); }))
    throw InputError(file_, "", "no line has an \"answer\" (exported without the answers?)");
  return std::move(key_);
}

}  // namespace

AnswerKey load_export_key(const std::filesystem::path& path, KeyNeeds needs) {
  const std::string file = path.string();
  std::ifstream in(path);  // a line at a time: a key of any size (IBM's 198 MB file exported)
  if (!in) throw InputError(file, "", std::strerror(errno));
  ExportKeyReader reader(file, needs);
  std::size_t number = 0;
  for (std::string line; std::getline(in, line);) reader.read(line, ++number);
  if (in.bad()) throw InputError(file, at_line(number + 1), "cannot be read");
  KeyParts parts = std::move(reader).finish();
  AnswerKey key(path, std::move(parts.items));
  key.shown_ = std::move(parts.shown);
  key.references_ = parts.references;
  key.from_export_ = true;
  key.style_ = std::move(parts.style);
  key.pred_ = parts.pred;
  key.values_ = std::move(parts.values);
  return key;
}

}  // namespace rave::evaluation
