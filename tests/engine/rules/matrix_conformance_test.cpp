// Conformance with the original generators: the 8 context panels plus the answer of every reference
// problem (tests/fixtures/reference: RAVEN, I-RAVEN, RAVEN-FAIR) obey the independent rule checker
// for some choice of the rule parameters (the files do not store them,
// docs/format.md#rules-in-the-files), and with those parameters our oracle gives the answer the
// maximal score and counts the original's `predict` (from the manifest) among its best.
#include <gtest/gtest.h>

#include <functional>
#include <iostream>

#include "engine/formats/npz.hpp"
#include "engine/formats/xml_io.hpp"
#include "engine/rules/oracle.hpp"
#include "tests/engine/support/reference_support.hpp"
#include "tests/engine/support/rule_checker_support.hpp"

namespace rave::engine {
namespace {

bool component_ok(const std::vector<std::string>& violations, std::size_t c) {
  const std::string prefix = "component " + std::to_string(c);
  for (const auto& v : violations)
    if (v.rfind(prefix, 0) == 0) return false;
  return true;
}

// Tries every parameter of the component's Progression (+-1, +-2) and Arithmetic (+-1) rules until
// the checker accepts the component; true when one assignment fits (it is left in `rules`).
bool infer_values(ConfigId id, std::vector<RuleGroup>& rules, std::span<const Panel> panels,
                  std::size_t c) {
  std::vector<std::size_t> open;
  for (std::size_t g = 0; g < 4; ++g) {
    Rule& r = rules[c].rules[g];
    r.value_known = true;
    if (r.name == RuleName::kProgression || r.name == RuleName::kArithmetic) open.push_back(g);
  }
  std::function<bool(std::size_t)> search = [&](std::size_t i) {
    if (i == open.size())
      return component_ok(::rave::testing::check_matrix_rules(id, rules, panels), c);
    Rule& r = rules[c].rules[open[i]];
    const std::vector<int> values =
        r.name == RuleName::kProgression ? std::vector<int>{-2, -1, 1, 2} : std::vector<int>{1, -1};
    for (int v : values) {
      r.value = v;
      if (search(i + 1)) return true;
    }
    return false;
  };
  return search(0);
}

void expect_reference_conforms(std::string_view set) {
  int problems = 0, predicted_best = 0;
  for (const auto& ref : ::rave::testing::reference_problems(set)) {
    const Problem problem = testing::read_reference_problem(ref);
    const auto& xml = ref.xml;
    Matrix m;
    m.config = problem.config;
    m.rules = problem.rules;
    for (std::size_t i = 0; i < 8; ++i) m.panels[i] = problem.context[i];
    m.panels[8] = problem.candidates[static_cast<std::size_t>(ref.target)];
    for (std::size_t c = 0; c < m.rules.size(); ++c)
      EXPECT_TRUE(infer_values(m.config, m.rules, m.panels, c))
          << xml << " component " << c << ": "
          << ::rave::testing::check_matrix_rules(m.config, m.rules, m.panels).front();
    const int best = 4 * static_cast<int>(m.rules.size());
    EXPECT_EQ(oracle_score(m, m.answer()), best) << xml;
    const int predicted =
        oracle_score(m, problem.candidates[static_cast<std::size_t>(ref.predict)]);
    EXPECT_EQ(predicted, best) << xml << ": the original's predict is not among our best";
    predicted_best += predicted == best ? 1 : 0;
    ++problems;
  }
  std::cout << set << " reference: " << problems
            << " problems conform, original predict among our best in " << predicted_best << "\n";
}

TEST(MatrixConformance, RavenReference) { expect_reference_conforms("raven"); }
TEST(MatrixConformance, IRavenReference) { expect_reference_conforms("iraven"); }
TEST(MatrixConformance, FairReference) { expect_reference_conforms("fair"); }

}  // namespace
}  // namespace rave::engine
