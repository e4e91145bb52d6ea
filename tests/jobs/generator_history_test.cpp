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

bool names(const std::string& text, const std::string& what) {
  return text.find(what) != std::string::npos;
}

TEST(GeneratorHistory, NamesTheChangesThatTouchTheVariant) {
  const std::string grid = generator_changes_since("0.3.0", Variant{.grid = 5});
  EXPECT_TRUE(names(grid, "rave 0.4.0 draws a variant's rules directly")) << grid;
  EXPECT_FALSE(names(grid, "rave 0.3.0")) << grid;  // 0.3.0 made it: its own change is in
  const std::string older = generator_changes_since("0.2.0", Variant{.values = 10});
  EXPECT_TRUE(names(older, "rave 0.3.0") && names(older, "rave 0.4.0")) << older;
  const Variant pairs{.regime = engine::Regime::kHeldOutPairs,
                      .held_out_pairs = {{engine::RuleAttr::kSize, engine::RuleName::kArithmetic}}};
  const std::string regime = generator_changes_since("0.2.0", pairs);
  EXPECT_TRUE(names(regime, "rave 0.4.0") && !names(regime, "rave 0.3.0")) << regime;
}

TEST(GeneratorHistory, TheOriginalsAndThisVersionStillReplay) {
  EXPECT_EQ(generator_changes_since("0.1.0", Variant{}), "");
  const std::string confounders = generator_changes_since("0.3.0", Variant{.confounders = 3});
  EXPECT_TRUE(names(confounders, "answer sets exchangeably"))
      << confounders;  // 3 x 3 rules, balanced answers
  EXPECT_FALSE(names(confounders, "rules directly")) << confounders;
  EXPECT_EQ(generator_changes_since(version(), Variant{.grid = 10, .values = 100}), "");
  EXPECT_EQ(generator_changes_since("0.4", Variant{.grid = 10}), "");     // not a version number:
  EXPECT_EQ(generator_changes_since("0.3.0x", Variant{.grid = 10}), "");  // replayed as before
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
  EXPECT_TRUE(names(why, "check it with rave 0.3.0, or with --no-replay")) << why;
  why.clear();
  EXPECT_TRUE(Replay::of(manifest("0.3.0", 3), why).has_value()) << why;
  EXPECT_TRUE(Replay::of(manifest(std::string(version()), 4), why).has_value()) << why;
}

}  // namespace
}  // namespace rave::jobs
