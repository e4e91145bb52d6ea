#pragma once
// An independent checker of generated matrices, written from the text of
// docs/format.md#configurations, docs/format.md#value-tables, docs/rules.md (not from the
// generator's code): it verifies that every rule with its parameter holds on rows 1-3, that
// Uniformity is constant within a problem, that uniform layouts hold identical entities, that
// copied entities keep their values, and that every level stays within the original ranges.
//
//   auto problems = check_matrix_rules(ConfigId::kDistributeFour, m.rules, m.panels);
//   EXPECT_TRUE(problems.empty()) << problems.front();
#include <array>
#include <string>
#include <vector>

#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"

namespace rave::testing {

/// All violations found in the 9 panels (row-major, [8] = answer) under `rules`; empty when the
/// matrix obeys docs/rules.md.
std::vector<std::string> check_matrix_rules(engine::ConfigId config,
                                            const std::vector<engine::RuleGroup>& rules,
                                            const std::array<engine::Panel, 9>& panels);

}  // namespace rave::testing
