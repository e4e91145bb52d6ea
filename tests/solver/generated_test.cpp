// Problems made by rave's own generator (fixed seeds): the posterior answers every one, the rules
// given make every one unique, the two backends agree, and the options and budgets behave as
// values.
#include <gtest/gtest.h>

#include "engine/generate.hpp"
#include "solver/abduction/component_fit.hpp"
#include "solver/heuristic.hpp"
#include "solver/z3_backend.hpp"
#include "tests/solver/backends_support.hpp"

namespace rave::solver {
namespace {

using engine::AnswerStrategy;
using engine::ConfigId;

constexpr std::uint64_t kSeed = 777;

std::vector<engine::Problem> generate(AnswerStrategy strategy, int per_config) {
  std::vector<engine::Problem> out;
  for (int c = 0; c < engine::kNumConfigs; ++c)
    for (int k = 0; k < per_config; ++k)
      out.push_back(engine::generate_problem(static_cast<ConfigId>(c), strategy, kSeed,
                                             static_cast<std::uint64_t>(k)));
  return out;
}

class Generated : public ::testing::TestWithParam<AnswerStrategy> {};

// A wrong answer can only be the generator's own Bayes error (docs/solver.md#confusable-rules: of
// order 1e-4 per problem), which needs an ambiguous problem; a unique problem answered wrongly
// would be a bug.
TEST_P(Generated, PosteriorAnswersAndRulesMakeEveryProblemUnique) {
  HeuristicSolver free_rules, told_rules({.use_rules = true});
  int ambiguous = 0, wrong = 0;
  for (const auto& p : generate(GetParam(), 40)) {
    const Solution s = free_rules.solve(p);
    if (s.verdict == Verdict::kUnique) {
      EXPECT_EQ(s.answer, *p.target);
    }
    wrong += s.answer != *p.target;
    EXPECT_TRUE((s.consistent >> *p.target) & 1u);
    EXPECT_NE(s.verdict, Verdict::kNone) << s.reason;
    ambiguous += s.verdict == Verdict::kAmbiguous;
    const Solution r = told_rules.solve(p);
    EXPECT_EQ(r.verdict, Verdict::kUnique);
    EXPECT_EQ(r.answer, *p.target);
  }
  EXPECT_LE(ambiguous,
            6);  // about 0.5% of 280 expected (docs/solver.md#without-the-rules-what-is-possible)
  EXPECT_LE(wrong, 1);
}

TEST_P(Generated, HeuristicAndZ3AgreeOnTheConsistentSetAndTheVerdict) {
  const auto problems = generate(GetParam(), 12);
  for_both_backends(
      problems, [&](std::size_t i, bool, const Solution& h, const Solution& z, const Z3Solver& z3) {
        EXPECT_EQ(h.consistent, z.consistent) << i;
        EXPECT_EQ(h.verdict, z.verdict) << i;
        ASSERT_TRUE(z.answer.has_value());
        if (z.verdict == Verdict::kUnique) {
          EXPECT_EQ(h.answer, z.answer) << i;
        }
        EXPECT_EQ(z3.reading(*z.answer).count, static_cast<int>(problems[i].rules.size()));
      });
}

// The generator's own rules, parameters included, explain its answer: the hypothesis checks never
// reject what the rules produce (the strongest no-false-rejection check there is).
TEST_P(Generated, TheTrueRulesWithTheirParametersExplainTheAnswer) {
  for (const auto& p : generate(GetParam(), 30)) {
    const int components = static_cast<int>(p.rules.size());
    const LayoutModel* models[2] = {&layout_model(p.config, 0),
                                    components == 2 ? &layout_model(p.config, 1) : nullptr};
    std::array<ComponentView, 2> views;
    build_views(p, components, models, views.data());
    for (int c = 0; c < components; ++c) {
      auto exactly = [](const std::vector<Hypothesis>& list, const engine::Rule& truth) {
        HypothesisMask mask = 0;
        for (std::size_t i = 0; i < list.size(); ++i)
          if (list[i].rule.name == truth.name && list[i].rule.attr == truth.attr &&
              list[i].rule.value == truth.value)
            mask |= HypothesisMask{1} << i;
        return mask;
      };
      AllowedHypotheses truth;
      truth.group0 = exactly(models[c]->group0, p.rules[c].rules[0]);
      for (int a = 0; a < kRuleAttrs; ++a)
        truth.entity[a] = exactly(models[c]->entity[a], p.rules[c].rules[a + 1]);
      ASSERT_NE(truth.group0, 0u) << "true rule not among the valid hypotheses";
      ComponentFit fit;
      fit.fit(*models[c], views[c], truth, /*occam=*/false);
      ComponentReading why;
      EXPECT_NE(fit.score(*p.target, &why), kNoScore)
          << engine::configuration(p.config).folder << " component " << c << " "
          << fit.context_gap();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Strategies, Generated,
                         ::testing::Values(AnswerStrategy::kRaven, AnswerStrategy::kIRaven,
                                           AnswerStrategy::kFair),
                         [](const auto& info) {
                           return std::string(engine::strategy_name(info.param));
                         });

// Without the Occam step, noise readings tie many more problems
// (docs/solver.md#details-that-decide: 18% instead of 0.5%), yet the posterior still ranks the
// answer first.
TEST(Options, WithoutOccamMoreProblemsTieButThePosteriorStillAnswers) {
  HeuristicSolver occam, logic_only({.occam = false});
  Z3Solver z3_logic_only({.occam = false});
  int tied_occam = 0, tied_logic = 0, wrong = 0;
  for (const auto& p : generate(AnswerStrategy::kIRaven, 30)) {
    const Solution a = occam.solve(p), b = logic_only.solve(p);
    tied_occam += a.verdict == Verdict::kAmbiguous;
    tied_logic += b.verdict == Verdict::kAmbiguous;
    wrong += b.answer != *p.target;
    EXPECT_EQ((a.consistent & ~b.consistent), 0) << "Occam only removes readings";
    EXPECT_EQ(z3_logic_only.solve(p).consistent, b.consistent);
  }
  EXPECT_GT(tied_logic, tied_occam + 10);
  EXPECT_LE(wrong, 1);  // the posterior still ranks the answer first (Bayes error aside)
}

TEST(Options, AnExhaustedZ3BudgetIsAnUnknownVerdictNotAnError) {
  const auto p =
      engine::generate_problem(ConfigId::kDistributeNine, AnswerStrategy::kRaven, kSeed, 3);
  Z3Solver starved({}, Z3Budget{.rlimit = 1});
  const Solution s = starved.solve(p);
  EXPECT_EQ(s.verdict, Verdict::kUnknown);
  EXPECT_NE(s.reason.find("rlimit 1,"), std::string::npos) << s.reason;
  Z3Solver fed({}, Z3Budget{.rlimit = 50'000'000});
  EXPECT_NE(fed.solve(p).verdict, Verdict::kUnknown);
}

TEST(Options, UnusablePanelsAreExplainedByNothing) {
  auto p = engine::generate_problem(ConfigId::kDistributeFour, AnswerStrategy::kRaven, kSeed, 5);
  auto broken_candidate = p;
  broken_candidate.candidates[*p.target].components[0].entities.clear();
  HeuristicSolver h;
  Z3Solver z3;
  const Solution s = h.solve(broken_candidate);
  EXPECT_FALSE((s.consistent >> *p.target) & 1u);
  EXPECT_EQ(z3.solve(broken_candidate).consistent, s.consistent);
  auto broken_context = p;
  broken_context.context[4].components[0].entities[0].slot = 7;  // Distribute_Four has slots 0..3
  const Solution none = h.solve(broken_context);
  EXPECT_EQ(none.verdict, Verdict::kNone);
  EXPECT_EQ(none.consistent, 0);
  EXPECT_NE(none.reason.find("Number/Position"), std::string::npos) << none.reason;
  EXPECT_EQ(z3.solve(broken_context).verdict, Verdict::kNone);
}

// A candidate changed in one entity's Type is no longer explained, unless the answer's reading
// makes Type noise there (a Constant Type under a regenerating group-0 rule in a non-uniform
// layout).
TEST(Options, ChangingTheAnswerInOneAttributeBreaksIt) {
  HeuristicSolver h({.use_rules = true});
  int checked = 0;
  for (const auto& original : generate(AnswerStrategy::kIRaven, 5)) {
    ASSERT_EQ(h.solve(original).verdict, Verdict::kUnique);
    const Reading why = h.reading(*original.target);
    const int last = why.count - 1;
    if (why.components[last].noise[kType]) continue;
    auto p = original;
    auto& entity = p.candidates[*p.target].components[last].entities.front();
    entity.type = entity.type == 5 ? 4 : entity.type + 1;
    EXPECT_FALSE((h.solve(p).consistent >> *p.target) & 1u);
    ++checked;
  }
  EXPECT_GT(checked, 25);
}

}  // namespace
}  // namespace rave::solver
