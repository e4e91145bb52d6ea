#include "evaluation/scoring/score_forms.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <regex>

#include "common/error.hpp"
#include "evaluation/export/text_prompt.hpp"
#include "evaluation/scoring/reply.hpp"

namespace rave::evaluation {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string at_line(std::size_t line) { return "line " + std::to_string(line); }

// The first `n` numbers of a text, or n NaNs when it has fewer (text2num's row for one sample).
std::vector<double> first_numbers(std::string_view text, std::string_view queue, std::size_t n) {
  std::vector<double> v = text2num(text, queue);
  if (v.size() < n) return std::vector<double>(n, kNaN);
  v.resize(n);
  return v;
}

// The candidates' rows as IBM's text2num(choices, nattr, 8) makes them: the first `nattr` numbers
// of each, a row of NaN for one with fewer. kAllNumbers: as many as the longest text holds (a
// shorter row is NaN and never matches).
std::vector<std::vector<double>> candidate_rows(const std::vector<std::vector<double>>& rows,
                                                int nattr) {
  std::size_t n = static_cast<std::size_t>(nattr);
  if (nattr == kAllNumbers)
    for (const auto& r : rows) n = std::max(n, r.size());
  std::vector<std::vector<double>> out;
  for (const auto& r : rows)
    out.push_back(r.size() < n ? std::vector<double>(n, kNaN)
                               : std::vector<double>(r.begin(), r.begin() + static_cast<long>(n)));
  return out;
}

// The part of a text after the first `queue` (IBM's answer_queue), or all of it.
std::string_view after_queue(std::string_view text, std::string_view queue) {
  if (!queue.empty())
    if (const std::size_t at = text.find(queue); at != std::string_view::npos)
      text.remove_prefix(at + queue.size());
  return text;
}

}  // namespace

std::vector<double> text2num(std::string_view text, std::string_view answer_queue) {
  text = after_queue(text, answer_queue);
  static const std::regex number(R"([-+]?(?:\d*\.*\d+))");
  std::vector<double> out;
  const std::string s(text);
  for (auto it = std::sregex_iterator(s.begin(), s.end(), number); it != std::sregex_iterator();
       ++it) {
    const std::string token = it->str();
    if (std::count(token.begin(), token.end(), '.') > 1) continue;  // float() raises on "1..5"
    out.push_back(std::strtod(token.c_str(), nullptr));
  }
  return out;
}

std::vector<double> majority_vote(const std::vector<std::vector<double>>& samples) {
  const std::size_t columns = samples.empty() ? 0 : samples.front().size();
  std::vector<double> out(columns, 0.0);
  for (std::size_t c = 0; c < columns; ++c) {
    std::map<double, int> counts;  // ordered: the first of the most frequent is the smallest
    for (const auto& s : samples)
      if (!std::isnan(s[c])) ++counts[s[c]];
    int best = 0;
    for (const auto& [value, count] : counts)
      if (count > best) best = count, out[c] = value;
  }
  return out;
}

int find_best_match(const std::vector<std::vector<double>>& candidates,
                    const std::vector<double>& prediction) {
  int best = 0, best_count = -1;
  for (std::size_t k = 0; k < candidates.size(); ++k) {
    int count = 0;
    for (std::size_t a = 0; a < candidates[k].size() && a < prediction.size(); ++a)
      count += candidates[k][a] == prediction[a] ? 1 : 0;
    if (count > best_count) best_count = count, best = static_cast<int>(k);
  }
  return best;
}

CandidateValues candidate_values(const engine::Problem& problem) {
  CandidateValues v;
  for (const std::string& choice : entangled_prompt(problem, TextOptions{}).choices)
    v.entangled.push_back(text2num(choice, ""));
  for (const AttributePrompt& p : disentangled_prompts(problem, TextOptions{})) {
    v.branches.push_back(p.component + "/" + p.attribute);
    auto& per = v.branch.emplace_back();
    for (const std::string& choice : p.text.choices) per.push_back(text2num(choice, ""));
  }
  return v;
}

// Solver_disc: text2num(out, 1) per sample, guard_answer (outside 0..7 -> 0; NaN stays),
// majority_vote (all NaN -> 0). Solver_pred: text2num(out, nattr) per sample, majority_vote,
// find_best_match against text2num(choices, nattr).
std::string_view text_answer_name(TextAnswer mode) {
  switch (mode) {
    case TextAnswer::kIndex: return "index";
    case TextAnswer::kValues: return "values";
    case TextAnswer::kLabel: return "label";
    case TextAnswer::kLetter: return "letter";
    case TextAnswer::kAnswerIndex: return "answer-index";
  }
  return "index";
}

std::optional<TextAnswer> parse_text_answer(std::string_view name) {
  for (const auto mode : {TextAnswer::kIndex, TextAnswer::kValues, TextAnswer::kLabel,
                          TextAnswer::kLetter, TextAnswer::kAnswerIndex})
    if (text_answer_name(mode) == name) return mode;
  return std::nullopt;
}

TextChoice text_choice(const std::vector<std::string>& texts, const CandidateValues* values,
                       int candidates, TextAnswer mode, std::string_view answer_queue, int nattr) {
  if (mode == TextAnswer::kLabel || mode == TextAnswer::kLetter ||
      mode == TextAnswer::kAnswerIndex) {
    std::vector<std::string> after;
    for (const auto& t : texts) after.emplace_back(after_queue(t, answer_queue));
    const auto labels = mode == TextAnswer::kLabel    ? ReplyLabels::kNumbers
                        : mode == TextAnswer::kLetter ? ReplyLabels::kLetters
                                                      : ReplyLabels::kIndices;
    const auto k = read_replies(after, labels, candidates);
    return {k, k.has_value()};
  }
  RAVE_CHECK(values != nullptr, "IBM's text answers need the candidates' values");
  std::vector<std::vector<double>> samples;
  bool read = false;
  if (mode == TextAnswer::kIndex) {
    for (const auto& t : texts) {
      double k = first_numbers(t, answer_queue, 1)[0];
      read = read || !std::isnan(k);
      if (k < 0 || k > candidates - 1) k = 0;  // guard_answer (a NaN compares false and stays)
      samples.push_back({k});
    }
    const double k = majority_vote(samples)[0];
    return {k == std::floor(k) ? static_cast<int>(k) : 0, read};  // int() of a fractional id
  }
  const auto rows = candidate_rows(values->entangled, nattr);
  const std::size_t n = rows.empty() ? 0 : rows.front().size();
  for (const auto& t : texts) {
    samples.push_back(first_numbers(t, answer_queue, n));
    read = read || (n > 0 && !std::isnan(samples.back().front()));
  }
  return {find_best_match(rows, majority_vote(samples)), read};
}

std::vector<double> attribute_value(const AttributeAnswer& answer, std::string_view answer_queue) {
  if (answer.samples.empty()) return answer.value.empty() ? std::vector<double>{0.0} : answer.value;
  std::vector<std::vector<double>> samples;
  for (const auto& reply : answer.samples) samples.push_back(first_numbers(reply, answer_queue, 1));
  return majority_vote(samples);
}

int attribute_candidate(const std::vector<AttributeAnswer>& answers, const CandidateValues& values,
                        std::string_view answer_queue, const std::string& file, std::size_t line) {
  std::vector<int> count(values.entangled.size(), 0);
  for (const AttributeAnswer& a : answers) {
    const auto matches = [&](const std::string& branch) {
      const std::size_t slash = branch.find('/');
      return branch.substr(slash + 1) == a.attribute &&
             (a.component.empty() || branch.substr(0, slash) == a.component);
    };
    const auto it = std::find_if(values.branches.begin(), values.branches.end(), matches);
    if (it == values.branches.end() ||
        (a.component.empty() &&
         std::find_if(it + 1, values.branches.end(), matches) != values.branches.end()))
      throw InputError(
          file, at_line(line),
          "\"attributes\": " +
              (a.component.empty() ? a.attribute : a.component + "/" + a.attribute) +
              (it == values.branches.end() ? " is no branch of this problem"
                                           : " is in several components; name the component"));
    const std::vector<double> value = attribute_value(a, answer_queue);
    const auto& per = values.branch[static_cast<std::size_t>(it - values.branches.begin())];
    for (std::size_t k = 0; k < per.size() && k < count.size(); ++k)
      count[k] += per[k] == value ? 1 : 0;
  }
  return static_cast<int>(std::max_element(count.begin(), count.end()) - count.begin());
}

std::string_view logprob_score_name(LogprobScore how) {
  return how == LogprobScore::kSum ? "sum" : "mean";
}

std::optional<LogprobScore> parse_logprob_score(std::string_view name) {
  if (name == "mean") return LogprobScore::kMean;
  if (name == "sum") return LogprobScore::kSum;
  return std::nullopt;
}

std::vector<double> logprob_scores(const Prediction& p, LogprobScore how, int candidates,
                                   const std::string& file) {
  std::vector<double> scores(static_cast<std::size_t>(candidates), 0.0);
  for (std::size_t b = 0; b < p.logprobs.size(); ++b) {
    const auto& sub = p.logprobs[b];
    if (static_cast<int>(sub.size()) != candidates)
      throw InputError(file, at_line(p.line),
                       "\"logprobs\" sub-prompt " + std::to_string(b) + " has " +
                           std::to_string(sub.size()) + " token lists for " +
                           std::to_string(candidates) + " candidates");
    for (std::size_t k = 0; k < sub.size(); ++k) {
      if (sub[k].empty())
        throw InputError(file, at_line(p.line),
                         "\"logprobs\" sub-prompt " + std::to_string(b) + ", candidate " +
                             std::to_string(k) + ": no tokens");
      double sum = 0;
      for (double t : sub[k]) sum += t;  // left to right, as Python's sum before 3.12
      scores[k] += how == LogprobScore::kMean ? sum / static_cast<double>(sub[k].size()) : sum;
    }
  }
  return scores;
}

}  // namespace rave::evaluation
