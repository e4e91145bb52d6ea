// RAVEN-FAIR's random tree (docs/answer-sets.md#raven-fair-a-random-tree): every distractor scores
// below the answer under the original solver and renders differently from every other candidate;
// the tree grows by one RAVEN modification per edge.
#include <gtest/gtest.h>

#include "engine/answers/answer_set.hpp"
#include "engine/model/configuration.hpp"
#include "engine/render/render.hpp"
#include "engine/rules/oracle.hpp"
#include "tests/engine/support/answer_support.hpp"
#include "tests/engine/support/reference_support.hpp"

namespace rave::engine {
namespace {

// Every distractor must be reachable from another candidate by one change of an attribute entry
// (its parent; Number changes may rebuild the whole component).
bool has_parent_one_change_away(const AnswerSet& set, std::size_t i) {
  for (std::size_t j = 0; j < 8; ++j) {
    if (j == i) continue;
    const auto diff = testing::panel_diff(set.candidates[j], set.candidates[i]);
    if (diff.size() == 1 && diff.begin()->second != Attr::kAngle) return true;
  }
  return false;
}

TEST(FairAnswers, DistractorsScoreBelowTheAnswerAndRenderDistinctly) {
  int deep = 0;  // distractors more than one change away from the answer
  for (const Configuration& config : all_configurations()) {
    for (const Matrix& m : testing::sample_matrices(config.id, 12, 4322)) {
      Rng rng(99);
      const AnswerSet set = build_answer_set(m, AnswerStrategy::kFair, rng, render_panel);
      const int answer_score = oracle_score(m, m.answer());
      std::array<Image, 8> images;
      for (std::size_t i = 0; i < 8; ++i) images[i] = render_panel(m.config, set.candidates[i]);
      for (std::size_t i = 0; i < 8; ++i) {
        if (static_cast<int>(i) == set.target) continue;
        EXPECT_LT(oracle_score(m, set.candidates[i]), answer_score) << config.folder;
        for (std::size_t j = 0; j < i; ++j) EXPECT_NE(images[i], images[j]) << config.folder;
        EXPECT_TRUE(has_parent_one_change_away(set, i)) << config.folder;
        deep += testing::panel_diff(m.answer(), set.candidates[i]).size() > 1;
      }
    }
  }
  EXPECT_GT(deep, 50);  // a tree, not RAVEN's star
}

TEST(FairAnswers, SameSeedSameAnswerSet) {
  const Matrix m = testing::sample_matrices(ConfigId::kDistributeNine, 1, 5)[0];
  Rng a(17), b(17);
  const AnswerSet x = build_answer_set(m, AnswerStrategy::kFair, a, render_panel);
  const AnswerSet y = build_answer_set(m, AnswerStrategy::kFair, b, render_panel);
  EXPECT_EQ(x.candidates, y.candidates);
  EXPECT_EQ(x.target, y.target);
  EXPECT_EQ(x.rejected, y.rejected);
}

TEST(FairAnswers, EndsInALogicErrorWhenEveryChildIsRejected) {
  // Row 3 holds Type/Size/Color levels the answer does not repeat, so under Constant rules the
  // answer passes only the Number/Position check; every child passes it too (one slot), scores
  // >= the answer and is rejected. The lists run dry after 4 + 5 + 9 attempts: an error, no hang.
  Matrix m = testing::hand_matrix(
      ConfigId::kCenterSingle, {testing::all_constant()},
      {testing::component(0, {Entity{.slot = 0, .type = 2, .size = 3, .color = 4, .angle = 3}})});
  for (std::size_t i : {6u, 7u})
    m.panels[i].components[0].entities[0] =
        Entity{.slot = 0, .type = 1, .size = 1, .color = 1, .angle = 3};
  ASSERT_EQ(oracle_score(m, m.answer()), 1);
  Rng rng(3);
  try {
    build_answer_set(m, AnswerStrategy::kFair, rng, render_panel);
    ADD_FAILURE() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("no candidate has a modifiable attribute left"),
              std::string::npos)
        << e.what();
  }
}

// The original's RAVEN-FAIR files have the same tree property and pairwise distinct images.
TEST(FairAnswers, ReferenceAnswerSetsAreTreesOfSingleChanges) {
  const auto problems = testing::read_reference_problems("fair");
  ASSERT_GE(problems.size(), 35u);
  int deep = 0;
  for (const Problem& p : problems) {
    AnswerSet set;
    set.candidates = p.candidates;
    set.target = *p.target;
    std::array<Image, 8> images;
    for (std::size_t i = 0; i < 8; ++i) images[i] = render_panel(p.config, p.candidates[i]);
    const Panel& answer = p.candidates[static_cast<std::size_t>(*p.target)];
    for (std::size_t i = 0; i < 8; ++i) {
      for (std::size_t j = 0; j < i; ++j) EXPECT_NE(images[i], images[j]);
      if (static_cast<int>(i) == set.target) continue;
      EXPECT_TRUE(has_parent_one_change_away(set, i));
      deep += testing::panel_diff(answer, p.candidates[i]).size() > 1;
    }
  }
  EXPECT_GT(deep, 10);
}

}  // namespace
}  // namespace rave::engine
