// Smoothed values and variant problems in the export: the distribution puts P on the true level and
// shares the rest with the neighbours in the range, the text forms show it, and the json form of an
// N x N problem with confounders reads back to the same problem.
#include "evaluation/smooth.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "engine/generate.hpp"
#include "evaluation/export.hpp"

namespace rave::evaluation {
namespace {

engine::Problem center(const engine::Variant& v = {}) {
  return engine::generate_problem(engine::ConfigId::kCenterSingle, engine::AnswerStrategy::kRaven,
                                  3, 0, v, engine::Split::kTrain);
}

TEST(Smooth, SharesTheRestWithTheNeighboursInTheRange) {
  const engine::Problem p = center();
  using LP = LevelProbability;
  EXPECT_EQ(smoothed_level(p, 0, 2, 4, 0.5), (std::vector<LP>{{4, 0.5}, {3, 0.25}, {5, 0.25}}));
  EXPECT_EQ(smoothed_level(p, 0, 2, 0, 0.5), (std::vector<LP>{{0, 0.5}, {1, 0.5}}));  // Color 0..9
  EXPECT_EQ(smoothed_level(p, 0, 2, 9, 0.5), (std::vector<LP>{{9, 0.5}, {8, 0.5}}));
  EXPECT_EQ(smoothed_level(p, 0, 0, 3, 1.0), (std::vector<LP>{{3, 1.0}}));
  EXPECT_THROW(check_smoothing(0.0), UsageError);
  EXPECT_THROW(check_smoothing(1.5), UsageError);
  EXPECT_NO_THROW(check_smoothing(1.0));
}

TEST(Smooth, NeighboursUnderInterpolationAreTheSplitsOwnLevels) {
  const engine::Problem p = engine::generate_problem(
      engine::ConfigId::kCenterSingle, engine::AnswerStrategy::kRaven, 3, 0,
      engine::Variant{.regime = engine::Regime::kInterpolation}, engine::Split::kTrain);
  const int color = p.context[0].components[0].entities[0].color;
  for (const LevelProbability& lp : smoothed_level(p, 0, 2, color, 0.6))
    EXPECT_EQ((lp.level - color) % 2, 0);
}

TEST(Smooth, TextFormsShowDistributions) {
  const engine::Problem p = center();
  const TextPrompt plain = entangled_prompt(p, {}), smoothed = entangled_prompt(p, {.smooth = 0.8});
  EXPECT_EQ(plain.context.find('{'), std::string::npos);
  EXPECT_NE(smoothed.context.find(": 0.8"), std::string::npos) << smoothed.context;
  for (const AttributePrompt& a : disentangled_prompts(p, {.smooth = 0.8}))
    EXPECT_NE(a.text.context.find(": 0.8"), std::string::npos) << a.attribute;
}

TEST(Smooth, JsonOfAVariantRoundTripsAndCarriesConfoundersAndDistributions) {
  const engine::Problem p = center(engine::Variant{.grid = 5, .confounders = 2});
  const Item item{.id = "center_single/RAVEN_0_train", .config = p.config, .split = "train"};
  const std::string line =
      export_line(item, p, {.format = ExportFormat::kJson, .text = {.smooth = 0.9}});
  const nlohmann::json j = nlohmann::json::parse(line);
  EXPECT_EQ(j["variant"]["grid"], 5);
  ASSERT_EQ(j["context"].size(), 24u);
  const nlohmann::json& entity = j["context"][0][0]["entities"][0];
  EXPECT_EQ(entity["confounders"].size(), 2u);
  EXPECT_EQ(entity["smoothed"]["color"][0][0], entity["color"]);
  const ExportedProblem back = parse_json_export_line(line, "x.jsonl", 1);
  EXPECT_EQ(back.problem.variant.grid, 5);
  ASSERT_EQ(back.problem.context.size(), p.context.size());
  for (std::size_t i = 0; i < p.context.size(); ++i)
    EXPECT_EQ(back.problem.context[i].components[0].entities, p.context[i].components[0].entities);
}

}  // namespace
}  // namespace rave::evaluation
