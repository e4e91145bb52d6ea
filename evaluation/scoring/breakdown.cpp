#include "evaluation/scoring/breakdown.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <map>

namespace rave::evaluation {
namespace {

// Per rule, per row: credit summed and problems scored.
struct Cell {
  double correct = 0;
  int items = 0;
};
struct RuleCounts {
  int problems = 0;
  std::vector<Cell> rows;
};

std::map<std::string, RuleCounts> count_rules(const AnswerKey& key, const Report& report) {
  std::map<std::string, RuleCounts> out;
  const auto& items = key.items();
  for (std::size_t i = 0; i < items.size(); ++i) {
    bool scored = false;
    for (const auto& r : report.rows)
      scored = scored || (i < r.credits.size() && !std::isnan(r.credits[i]));
    if (!scored) continue;
    for (const std::string& rule : items[i].rules) {
      RuleCounts& c = out[rule];
      c.rows.resize(report.rows.size());
      ++c.problems;
      for (std::size_t k = 0; k < report.rows.size(); ++k) {
        const auto& credits = report.rows[k].credits;
        if (i >= credits.size() || std::isnan(credits[i])) continue;
        c.rows[k].correct += credits[i];
        ++c.rows[k].items;
      }
    }
  }
  return out;
}

std::string cell_text(const Cell& c, bool intervals) {
  if (c.items == 0) return "-";
  const Summary s = binomial_summary(c.correct, c.items);
  char text[64];
  if (intervals)
    std::snprintf(text, sizeof text, "%.2f [%.2f, %.2f]", s.mean, s.low(), s.high());
  else
    std::snprintf(text, sizeof text, "%.2f", s.mean);
  return text;
}

}  // namespace

std::string rule_table(const AnswerKey& key, const Report& report) {
  const auto counts = count_rules(key, report);
  if (counts.empty()) return "";
  std::string out = "| rule | problems |";
  const auto cell = [&out](const std::string& text) { out.append(" ").append(text).append(" |"); };
  for (const auto& r : report.rows) cell(r.label);
  out += "\n|---|---:|";
  for (std::size_t k = 0; k < report.rows.size(); ++k) out += "---:|";
  out += '\n';
  for (const auto& [rule, c] : counts) {
    out += '|';
    cell(rule);
    cell(std::to_string(c.problems));
    for (const Cell& row : c.rows) cell(cell_text(row, report.intervals));
    out += '\n';
  }
  return out;
}

std::string rule_json(const AnswerKey& key, const Report& report) {
  using Ordered = nlohmann::ordered_json;
  Ordered out = Ordered::object();
  for (const auto& [rule, c] : count_rules(key, report)) {
    Ordered accuracy = Ordered::object();
    for (std::size_t k = 0; k < c.rows.size(); ++k)
      accuracy[report.rows[k].label] =
          c.rows[k].items ? Ordered(100.0 * c.rows[k].correct / c.rows[k].items) : Ordered();
    out[rule] = {{"problems", c.problems}, {"accuracy", std::move(accuracy)}};
  }
  return out.dump();
}

}  // namespace rave::evaluation
