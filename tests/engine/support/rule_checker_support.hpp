#pragma once
// An independent checker of generated matrices, written from the text of spec/raven.md 2-6 (not
// from the generator's code): it verifies that every rule with its parameter holds on every row (3
// columns, or N on an N x N matrix), that Uniformity is constant within a problem, that uniform
// layouts hold identical entities, that copied entities keep their values, and that every level
// stays within the original ranges.
//
//   auto problems = check_matrix_rules(ConfigId::kDistributeFour, m.rules, m.panels);
//   EXPECT_TRUE(problems.empty()) << problems.front();
#include <span>
#include <string>
#include <vector>

#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"

namespace rave::testing {

/// All violations found in the N*N panels (row-major, the last = answer) under `rules`; empty when
/// the matrix obeys the spec (on N columns as docs/variants.md generalizes it).
std::vector<std::string> check_matrix_rules(engine::ConfigId config,
                                            const std::vector<engine::RuleGroup>& rules,
                                            std::span<const engine::Panel> panels);
/// The same against the ranges of `config` (a variant's widened configuration).
std::vector<std::string> check_matrix_rules(const engine::Configuration& config,
                                            const std::vector<engine::RuleGroup>& rules,
                                            std::span<const engine::Panel> panels);

}  // namespace rave::testing
