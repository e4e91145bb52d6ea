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
#include "evaluation/score.hpp"
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

}  // namespace

AnswerKey load_export_key(const std::filesystem::path& path, KeyNeeds needs) {
  const std::string file = path.string();
  std::ifstream in(path);  // a line at a time: a key of any size (IBM's 198 MB file exported)
  if (!in) throw InputError(file, "", std::strerror(errno));
  std::vector<Item> items;
  std::vector<std::optional<std::uint64_t>> shown;
  std::vector<CandidateValues> values;
  solver::HeuristicSolver solver;
  bool references = true;
  std::string style;
  bool pred = false;
  std::unordered_map<std::string, std::size_t> first_line;
  std::size_t number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Json j;
    try {
      j = Json::parse(line);
    } catch (const Json::parse_error& e) {
      throw InputError(file, at_line(number),
                       "not a JSON object (syntax error at column " + std::to_string(e.byte) + ")");
    }
    if (!j.is_object()) throw InputError(file, at_line(number), "not a JSON object");
    Item item{.id = string_member(j, "id", file, number)};
    const std::string config = string_member(j, "configuration", file, number);
    const auto id = engine::find_configuration(config);
    if (!id) throw InputError(file, at_line(number), "unknown configuration '" + config + "'");
    item.config = *id;
    item.split = string_member(j, "split", file, number);
    item.verdict = verdict_named(string_member(j, "verdict", file, number), file, number);
    if (style.empty() && j.contains("style") && j.at("style").is_string())
      style = j.at("style").get<std::string>();
    if (j.contains("classmode") && j.at("classmode") == "pred") pred = true;
    CandidateValues v = text_values(j);
    item.candidates = candidate_count(j, v);
    if (j.contains("answer") && j.at("answer").is_number_integer()) {
      const int answer = j.at("answer").get<int>();
      if (answer < 0 || answer >= item.candidates)
        throw InputError(file, at_line(number),
                         "answer " + std::to_string(answer) + " is outside 0.." +
                             std::to_string(item.candidates - 1));
      item.answer = answer;
    }
    if (j.contains("candidates")) {  // the json form: the problem itself, in the shown order
      const engine::Problem p = internal::problem_from_fields(j, {file, number});
      if (needs.references)
        item.solver_answer = solver.solve(p).answer.value_or(-1);
      else
        item.solver_answer = -1, references = false;
      item.blind_answer = engine::context_blind_choice(p.candidates);
      item.rules = rule_labels(p);
      if (needs.values) v = candidate_values(p);
    } else {
      references = false;
    }
    if (j.contains("answers_shuffled")) {
      if (!j.at("answers_shuffled").is_number_unsigned())
        throw InputError(file, at_line(number), "\"answers_shuffled\" must be an integer >= 0");
      shown.push_back(j.at("answers_shuffled").get<std::uint64_t>());
    } else {
      shown.emplace_back();
    }
    if (needs.values && v.entangled.empty())
      throw InputError(file, at_line(number),
                       "no candidate values (\"text\" and \"attributes\" answers need the json, "
                       "text or text-disentangled form)");
    if (const auto [it, fresh] = first_line.emplace(item.id, number); !fresh)
      throw InputError(file, at_line(number),
                       "a second line for " + item.id + " (the first is line " +
                           std::to_string(it->second) + ")");
    items.push_back(std::move(item));
    if (needs.values) values.push_back(std::move(v));
  }
  if (in.bad()) throw InputError(file, at_line(number + 1), "cannot be read");
  if (items.empty()) throw InputError(file, "", "no export lines");
  if (std::none_of(items.begin(), items.end(), [](const Item& i) { return i.answer.has_value(); }))
    throw InputError(file, "", "no line has an \"answer\" (exported without the answers?)");
  AnswerKey key(path, std::move(items));
  key.shown_ = std::move(shown);
  key.references_ = references;
  key.from_export_ = true;
  key.style_ = std::move(style);
  key.pred_ = pred;
  key.values_ = std::move(values);
  return key;
}

}  // namespace rave::evaluation
