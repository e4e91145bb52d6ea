// The answer-set dispatcher (engine/answers/answer_set.hpp): strategy names, the invariants every
// strategy must satisfy on generated problems of every configuration, and determinism.
#include "engine/answers/answer_set.hpp"
#include "engine/render/render.hpp"

#include <gtest/gtest.h>

#include "common/error.hpp"
#include "engine/model/configuration.hpp"
#include "tests/engine/support/answer_support.hpp"

namespace rave::engine {
namespace {

constexpr std::array<AnswerStrategy, 3> kStrategies{AnswerStrategy::kRaven, AnswerStrategy::kIRaven,
                                                    AnswerStrategy::kFair};

TEST(AnswerStrategyNames, RoundTrip) {
  for (AnswerStrategy s : kStrategies) EXPECT_EQ(parse_strategy(strategy_name(s)), s);
  EXPECT_EQ(strategy_name(AnswerStrategy::kIRaven), "iraven");
  EXPECT_FALSE(parse_strategy("I-RAVEN").has_value());
  EXPECT_FALSE(parse_strategy("").has_value());
}

TEST(AnswerStrategyNames, StrategyNamedThrowsTheCliMessage) {
  EXPECT_EQ(strategy_named("fair"), AnswerStrategy::kFair);
  try {
    strategy_named("I-RAVEN");
    FAIL() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_STREQ(e.what(),
                 "unknown answer-set strategy 'I-RAVEN'; known: raven, iraven, fair, balanced");
  }
}

// Exactly one candidate equals the answer and it is at `target`; no two candidates are equal;
// only I-RAVEN reports modification lists.
void expect_well_formed(const Matrix& m, const AnswerSet& set, AnswerStrategy s) {
  ASSERT_GE(set.target, 0);
  ASSERT_LT(set.target, 8);
  int equal_to_answer = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    equal_to_answer += set.candidates[i] == m.answer();
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(set.candidates[i], set.candidates[j]);
  }
  EXPECT_EQ(equal_to_answer, 1);
  EXPECT_EQ(set.candidates[static_cast<std::size_t>(set.target)], m.answer());
  EXPECT_EQ(set.modified.has_value(), s == AnswerStrategy::kIRaven);
}

TEST(BuildAnswerSet, EveryStrategyIsWellFormedInEveryConfiguration) {
  std::array<int, 8> targets{};
  for (const Configuration& config : all_configurations()) {
    SCOPED_TRACE(std::string(config.folder));
    for (const Matrix& m : testing::sample_matrices(config.id, 8, 31)) {
      for (AnswerStrategy s : kStrategies) {
        Rng rng(static_cast<std::uint64_t>(m.rule_tries) * 3 + static_cast<std::uint64_t>(s));
        const AnswerSet set = build_answer_set(m, s, rng, render_panel);
        expect_well_formed(m, set, s);
        ++targets[static_cast<std::size_t>(set.target)];
      }
    }
  }
  for (int n : targets) EXPECT_GT(n, 8);  // 168 sets: the shuffle moves the answer everywhere
}

TEST(BuildAnswerSet, SameSeedSameAnswerSetDifferentSeedDifferentSet) {
  for (const Matrix& m : testing::sample_matrices(ConfigId::kOutInGrid, 3, 8)) {
    for (AnswerStrategy s : kStrategies) {
      Rng a(2021), b(2021), c(2022);
      const AnswerSet x = build_answer_set(m, s, a, render_panel);
      const AnswerSet y = build_answer_set(m, s, b, render_panel);
      EXPECT_EQ(x.candidates, y.candidates);
      EXPECT_EQ(x.target, y.target);
      EXPECT_EQ(x.modified, y.modified);
      EXPECT_EQ(a.next(), b.next());  // and the stream is left in the same state
      const AnswerSet z = build_answer_set(m, s, c, render_panel);
      EXPECT_TRUE(z.candidates != x.candidates || z.target != x.target);
    }
  }
}

TEST(BuildAnswerSet, RejectsAMatrixWithoutOneRuleGroupPerComponent) {
  Matrix m = testing::hand_matrix(
      ConfigId::kCenterSingle, {testing::all_constant()},
      {testing::component(0, {Entity{.slot = 0, .type = 2, .size = 3, .color = 4, .angle = 3}})});
  m.rules.clear();
  Rng rng(1);
  EXPECT_THROW(build_answer_set(m, AnswerStrategy::kRaven, rng), std::logic_error);
}

}  // namespace
}  // namespace rave::engine
