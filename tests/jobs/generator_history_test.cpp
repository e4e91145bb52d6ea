// The generator's history (jobs/generator_history.hpp) and what `rave check` does with it
// (jobs/dataset_replay.hpp): a dataset an older rave made is replayed unless a later change of the
// generator touches its variant; then the replay is refused with the change named.
#include <gtest/gtest.h>

#include <string>

#include "common/version.hpp"
#include "jobs/dataset_replay.hpp"
#include "jobs/generator_history.hpp"

namespace rave::jobs {
namespace {

using engine::Variant;
constexpr engine::AnswerStrategy kIRaven = engine::AnswerStrategy::kIRaven;

bool names(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

TEST(GeneratorHistory, NamesTheChangesThatTouchTheVariant) {
  const std::string grid = generator_changes_since("0.3.0", Variant{.grid = 5}, kIRaven);
  EXPECT_TRUE(names(grid, "rave 0.4.0 draws a variant's rules directly")) << grid;
  EXPECT_FALSE(names(grid, "rave 0.3.0")) << grid;  // 0.3.0 made it: its own change is in
  const std::string older = generator_changes_since("0.2.0", Variant{.values = 10}, kIRaven);
  EXPECT_TRUE(names(older, "rave 0.3.0") && names(older, "rave 0.4.0")) << older;
  const Variant pairs{.regime = engine::Regime::kHeldOutPairs,
                      .held_out_pairs = {{engine::RuleAttr::kSize, engine::RuleName::kArithmetic}}};
  const std::string regime = generator_changes_since("0.2.0", pairs, kIRaven);
  EXPECT_TRUE(names(regime, "rave 0.4.0") && !names(regime, "rave 0.3.0")) << regime;
}

TEST(GeneratorHistory, TheOriginalsAndThisVersionStillReplay) {
  EXPECT_EQ(generator_changes_since("0.1.0", Variant{}, kIRaven), "");
  const std::string confounders =
      generator_changes_since("0.3.0", Variant{.confounders = 3}, kIRaven);
  EXPECT_TRUE(names(confounders, "answer sets exchangeably"))
      << confounders;  // 3 x 3 rules, balanced answers
  EXPECT_FALSE(names(confounders, "rules directly")) << confounders;
  EXPECT_EQ(generator_changes_since(version(), Variant{.grid = 10, .values = 100}, kIRaven), "");
  // not a version number: replayed as before
  EXPECT_EQ(generator_changes_since("0.4", Variant{.grid = 10}, kIRaven), "");
  EXPECT_EQ(generator_changes_since("0.3.0x", Variant{.grid = 10}, kIRaven), "");
}

// rave 0.5.0 changed the exchangeable sets: `balanced` at every size, iraven and fair at a variant;
// raven and the 3 x 3 originals are unchanged.
TEST(GeneratorHistory, FreshRulesForReplicasTouchTheExchangeableSets) {
  using engine::AnswerStrategy;
  const auto since = [](const Variant& v, AnswerStrategy s) {
    return generator_changes_since("0.4.0", v, s);
  };
  EXPECT_TRUE(names(since(Variant{}, AnswerStrategy::kBalanced), "rave 0.5.0"));
  EXPECT_TRUE(names(since(Variant{.grid = 5}, AnswerStrategy::kFair), "rave 0.5.0"));
  EXPECT_TRUE(names(since(Variant{.confounders = 3}, AnswerStrategy::kIRaven), "rave 0.5.0"));
  for (const AnswerStrategy s :
       {AnswerStrategy::kRaven, AnswerStrategy::kIRaven, AnswerStrategy::kFair})
    EXPECT_EQ(since(Variant{}, s), "") << engine::strategy_name(s);
  EXPECT_EQ(since(Variant{.grid = 10, .values = 1000}, AnswerStrategy::kRaven), "");
}

// rave 0.6.0 draws replicas under the matrix's own rules first: the same sets as 0.5.0 are touched,
// and a 0.5.0 folder of them no longer replays; 0.5.0's 3 x 3 originals still do.
TEST(GeneratorHistory, OwnRulesFirstTouchTheExchangeableSets) {
  using engine::AnswerStrategy;
  const auto since = [](const Variant& v, AnswerStrategy s) {
    return generator_changes_since("0.5.0", v, s);
  };
  EXPECT_TRUE(names(since(Variant{}, AnswerStrategy::kBalanced), "rave 0.6.0"));
  EXPECT_TRUE(names(since(Variant{.grid = 10, .values = 1000}, AnswerStrategy::kIRaven), "0.6.0"));
  EXPECT_FALSE(names(since(Variant{.grid = 5}, AnswerStrategy::kFair), "rave 0.5.0"));
  for (const AnswerStrategy s :
       {AnswerStrategy::kRaven, AnswerStrategy::kIRaven, AnswerStrategy::kFair})
    EXPECT_EQ(since(Variant{}, s), "") << engine::strategy_name(s);
}

// rave 0.7.0 draws the matrix again where its own rules' pool offers no shape: the exchangeable sets
// again, and nothing else.
TEST(GeneratorHistory, MatrixRedrawsTouchTheExchangeableSets) {
  using engine::AnswerStrategy;
  const auto since = [](const Variant& v, AnswerStrategy s) {
    return generator_changes_since("0.6.0", v, s);
  };
  EXPECT_TRUE(names(since(Variant{}, AnswerStrategy::kBalanced), "rave 0.7.0"));
  EXPECT_TRUE(names(since(Variant{.grid = 5}, AnswerStrategy::kFair), "0.7.0"));
  EXPECT_TRUE(names(since(Variant{.confounders = 3}, AnswerStrategy::kIRaven), "0.7.0"));
  EXPECT_EQ(since(Variant{.grid = 5}, AnswerStrategy::kRaven), "");
  for (const AnswerStrategy s :
       {AnswerStrategy::kRaven, AnswerStrategy::kIRaven, AnswerStrategy::kFair})
    EXPECT_EQ(since(Variant{}, s), "") << engine::strategy_name(s);
}

// Which older datasets this rave may resume: the same bytes for the same seed.
TEST(GeneratorHistory, GeneratesAlikeOnlyWhereNoChangeBetweenTouches) {
  using engine::AnswerStrategy;
  EXPECT_TRUE(generates_alike("0.6.0", "0.7.0", Variant{}, AnswerStrategy::kRaven));
  EXPECT_TRUE(generates_alike("0.6.0", "0.7.0", Variant{.grid = 5}, AnswerStrategy::kRaven));
  EXPECT_FALSE(generates_alike("0.6.0", "0.7.0", Variant{}, AnswerStrategy::kBalanced));
  EXPECT_FALSE(generates_alike("0.6.0", "0.7.0", Variant{.grid = 5}, AnswerStrategy::kIRaven));
  EXPECT_TRUE(generates_alike("0.7.0", "0.7.0", Variant{.grid = 5}, AnswerStrategy::kIRaven));
  EXPECT_FALSE(generates_alike("0.8.0", "0.7.0", Variant{}, AnswerStrategy::kRaven))
      << "a newer rave's changes are not known here";
  EXPECT_FALSE(generates_alike("dev", "0.7.0", Variant{}, AnswerStrategy::kRaven));
  EXPECT_FALSE(generates_alike("0.3.0", "0.7.0", Variant{.grid = 5}, AnswerStrategy::kRaven));
}

DatasetManifest manifest(const std::string& made_by, int grid) {
  DatasetManifest m;
  m.rave_version = made_by;
  m.answers = "iraven";
  m.variant.grid = grid;
  return m;
}

TEST(GeneratorHistory, CheckRefusesToReplayWhatThisRaveMakesDifferently) {
  std::string why;
  EXPECT_FALSE(Replay::of(manifest("0.3.0", 4), why).has_value());
  EXPECT_TRUE(names(why, "rave.json was written by rave 0.3.0, and rave 0.4.0 draws")) << why;
  EXPECT_TRUE(names(why, "check it with rave 0.3.0, or without replaying its generator")) << why;
  why.clear();
  EXPECT_TRUE(Replay::of(manifest("0.3.0", 3), why).has_value()) << why;
  DatasetManifest balanced = manifest("0.4.0", 3);
  balanced.answers = "balanced";
  EXPECT_FALSE(Replay::of(balanced, why).has_value());
  EXPECT_TRUE(names(why, "rave 0.5.0 draws the replicas")) << why;
  EXPECT_TRUE(Replay::of(manifest(std::string(version()), 4), why).has_value()) << why;
}

}  // namespace
}  // namespace rave::jobs
