#pragma once
// Explanation text: the rules a reading assigns, and what separates the readings of competing
// candidates in an ambiguous problem.
//
//   for (auto& line : explain_lines(problem, solver.reading(s.answer))) puts(line.c_str());
//   // Out: Number/Position Constant
//   // In: Size Progression -1
//   std::string why = competing_readings(problem, {{2, r2}, {5, r5}});
//   // "In: Size Progression -2 (candidate 2) | Size Arithmetic - (candidate 5)"
#include <string>
#include <utility>
#include <vector>

#include "engine/model/problem.hpp"
#include "solver/solution.hpp"

namespace rave::solver {

/// "<Component>: <Attr> <Rule>[ <parameter>][ (noise)]", one line per rule of every component.
std::vector<std::string> explain_lines(const engine::Problem& problem, const Reading& reading);
/// The same rules on one line, components separated by "; ".
std::string reading_text(const engine::Problem& problem, const Reading& reading);
/// For candidates with their readings: the rules on which the readings differ, as
/// "<Component>: <rule> (candidate i) | <rule> (candidate j)", several groups joined by "; ".
/// When the readings agree on every rule: "same rules (candidates i, j)".
std::string competing_readings(const engine::Problem& problem,
                               const std::vector<std::pair<int, Reading>>& readings);

}  // namespace rave::solver
