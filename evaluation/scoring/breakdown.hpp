#pragma once
// Accuracy broken down by rule, as I-RAVEN-X papers report it (docs/evaluation.md#by-rule): for
// each "Attribute Rule" of the scored problems ("Type Progression", "Color Arithmetic", ...; a
// problem counts under every rule any of its components has), each one-file row's accuracy on
// the problems it is scored on that have the rule, with the Wilson 95% interval.
//
//   std::string table = rule_table(key, report);   // markdown, one line per rule
#include <string>

#include "evaluation/scoring/report.hpp"

namespace rave::evaluation {

/// Markdown: `| rule | problems | <row> ... |`, one line per rule in sorted order, a cell
/// "mean [low, high]" (or "mean" without intervals; "-" for a row over seeds, which has no
/// per-problem credit). "" when no scored problem has known rules.
std::string rule_table(const AnswerKey& key, const Report& report);
/// The same as one JSON object (no newline): {rule: {"problems": n, "accuracy": {row: % or
/// null}}}.
std::string rule_json(const AnswerKey& key, const Report& report);

}  // namespace rave::evaluation
