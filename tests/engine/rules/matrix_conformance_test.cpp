// Conformance with the original generators: the 8 context panels plus the answer of every problem
// in shared/data/{raven,iraven,fair}-reference obey the independent rule checker for some choice of
// the rule parameters (the files do not store them, spec 12.5), and with those parameters our
// oracle gives the answer the maximal score and counts the original's `predict` among its best.
// Skips cleanly when the reference data is absent.
#include <gtest/gtest.h>

#include <functional>
#include <iostream>

#include "engine/formats/npz.hpp"
#include "engine/rules/oracle.hpp"
#include "engine/formats/xml_io.hpp"
#include "tests/engine/support/rule_checker_support.hpp"
#include "tests/support/test_support.hpp"

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
bool infer_values(ConfigId id, std::vector<RuleGroup>& rules, const std::array<Panel, 9>& panels, std::size_t c) {
  std::vector<std::size_t> open;
  for (std::size_t g = 0; g < 4; ++g) {
    Rule& r = rules[c].rules[g];
    r.value_known = true;
    if (r.name == RuleName::kProgression || r.name == RuleName::kArithmetic) open.push_back(g);
  }
  std::function<bool(std::size_t)> search = [&](std::size_t i) {
    if (i == open.size()) return component_ok(testing::check_matrix_rules(id, rules, panels), c);
    Rule& r = rules[c].rules[open[i]];
    const std::vector<int> values = r.name == RuleName::kProgression ? std::vector<int>{-2, -1, 1, 2}
                                                                     : std::vector<int>{1, -1};
    for (int v : values) {
      r.value = v;
      if (search(i + 1)) return true;
    }
    return false;
  };
  return search(0);
}

void expect_reference_conforms(const std::string& corpus) {
  RAVE_REQUIRE_REFERENCE(dir, corpus);
  int problems = 0, predicted_best = 0;
  for (const auto& xml : testing::reference_xmls(dir)) {
    const Problem problem = read_problem_xml(xml);
    auto npz_path = xml;
    const NpzFile npz = read_npz(npz_path.replace_extension(".npz"));
    const auto target = static_cast<std::size_t>(npz.target());
    Matrix m;
    m.config = problem.config;
    m.rules = problem.rules;
    for (std::size_t i = 0; i < 8; ++i) m.panels[i] = problem.context[i];
    m.panels[8] = problem.candidates[target];
    for (std::size_t c = 0; c < m.rules.size(); ++c)
      EXPECT_TRUE(infer_values(m.config, m.rules, m.panels, c)) << xml << " component " << c << ": "
          << testing::check_matrix_rules(m.config, m.rules, m.panels).front();
    const int best = 4 * static_cast<int>(m.rules.size());
    EXPECT_EQ(oracle_score(m, m.answer()), best) << xml;
    const int predicted = oracle_score(m, problem.candidates[static_cast<std::size_t>(npz.predict())]);
    EXPECT_EQ(predicted, best) << xml << ": the original's predict is not among our best";
    predicted_best += predicted == best ? 1 : 0;
    ++problems;
  }
  EXPECT_GT(problems, 0);
  std::cout << corpus << ": " << problems << " problems conform, original predict among our best in "
            << predicted_best << "\n";
}

TEST(MatrixConformance, RavenReference) { expect_reference_conforms("raven-reference"); }
TEST(MatrixConformance, IRavenReference) { expect_reference_conforms("iraven-reference"); }
TEST(MatrixConformance, FairReference) { expect_reference_conforms("fair-reference"); }

}  // namespace
}  // namespace rave::engine
