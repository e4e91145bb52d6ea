// The text prompts against golden files written by hand from the reference XML (one problem per
// configuration: tests/fixtures/reference/raven/<configuration>/RAVEN_0_train.xml), and the
// disentangled form and larger panel counts on small hand-made problems.
#include "evaluation/text_prompt.hpp"

#include <gtest/gtest.h>

#include "common/atomic_file.hpp"
#include "engine/formats/xml_io.hpp"
#include "engine/model/configuration.hpp"
#include "tests/support/test_support.hpp"

namespace rave::evaluation {
namespace {

class TextGolden : public ::testing::TestWithParam<engine::ConfigId> {};

TEST_P(TextGolden, EntangledPromptEqualsTheHandWrittenFile) {
  const std::filesystem::path dir = testing::reference_fixtures_dir() / "raven";
  const std::string folder(engine::configuration(GetParam()).folder);
  const engine::Problem p = engine::read_problem_xml(dir / folder / "RAVEN_0_train.xml");
  const TextPrompt t = entangled_prompt(p, {});
  const std::string golden =
      read_file(testing::source_dir() / "tests/data/evaluation/text" / (folder + ".txt"));
  EXPECT_EQ(t.prompt + "\n", golden);
  ASSERT_EQ(t.choices.size(), 8u);
  EXPECT_EQ(t.prompt.substr(0, t.context.size()), t.context);
  EXPECT_EQ(t.context.substr(t.context.size() - 2), ", ");
}

INSTANTIATE_TEST_SUITE_P(AllConfigurations, TextGolden,
                         ::testing::Values(engine::ConfigId::kCenterSingle,
                                           engine::ConfigId::kDistributeFour,
                                           engine::ConfigId::kDistributeNine,
                                           engine::ConfigId::kLeftRight, engine::ConfigId::kUpDown,
                                           engine::ConfigId::kOutInCenter,
                                           engine::ConfigId::kOutInGrid));

const AttributePrompt& find(const std::vector<AttributePrompt>& prompts,
                            const std::string& component, const std::string& attribute) {
  for (const auto& p : prompts)
    if (p.component == component && p.attribute == attribute) return p;
  throw std::runtime_error("no sub-prompt " + component + "/" + attribute);
}

TEST(TextPrompt, DisentangledCenterSingleByHand) {
  const std::filesystem::path dir = testing::reference_fixtures_dir() / "raven";
  const auto p = engine::read_problem_xml(dir / "center_single/RAVEN_0_train.xml");
  const auto prompts = disentangled_prompts(p, {});
  ASSERT_EQ(prompts.size(), 3u);  // type, size, color of the one entity
  EXPECT_EQ(find(prompts, "Grid", "type").text.context,
            "row 1: 5, 5, 5; row 2: 3, 3, 3; row 3: 6, 6, ");
  EXPECT_EQ(find(prompts, "Grid", "size").text.context,
            "row 1: 2, 4, 6; row 2: 2, 4, 6; row 3: 1, 3, ");
  EXPECT_EQ(find(prompts, "Grid", "color").text.context,
            "row 1: 9, 8, 7; row 2: 5, 4, 3; row 3: 5, 4, ");
  EXPECT_EQ(find(prompts, "Grid", "color").text.choices,
            (std::vector<std::string>{"3", "5", "1", "3", "7", "3", "3", "3"}));
}

TEST(TextPrompt, DisentangledGridAddsLayoutAndNumber) {
  const std::filesystem::path dir = testing::reference_fixtures_dir() / "raven";
  const auto p = engine::read_problem_xml(dir / "distribute_four/RAVEN_0_train.xml");
  const auto prompts = disentangled_prompts(p, {});
  ASSERT_EQ(prompts.size(), 5u);
  EXPECT_EQ(find(prompts, "Grid", "number").text.context,
            "row 1: 2, 2, 2; row 2: 1, 1, 1; row 3: 4, 4, ");
  EXPECT_EQ(find(prompts, "Grid", "number").text.choices,
            (std::vector<std::string>{"4", "3", "4", "4", "3", "4", "4", "1"}));
  EXPECT_EQ(find(prompts, "Grid", "layout").text.choices[1], "[1, 1, 1, 0]");
  EXPECT_EQ(find(prompts, "Grid", "type").text.choices[1],
            "[6, 7]");  // Types 4, 5, 5 + 2, distinct
  EXPECT_EQ(find(prompts, "Grid", "size").text.choices[1], "[1, 6]");  // Sizes 0, 5, 5 + 1
  EXPECT_EQ(find(prompts, "Grid", "layout").text.context.substr(0, 21), "row 1: [1, 0, 0, 1], ");
}

TEST(TextPrompt, TwoComponentsGiveOnePromptSetEach) {
  const std::filesystem::path dir = testing::reference_fixtures_dir() / "raven";
  const auto p =
      engine::read_problem_xml(dir / "in_distribute_four_out_center_single/RAVEN_0_train.xml");
  const auto prompts = disentangled_prompts(p, {});
  ASSERT_EQ(prompts.size(), 8u);  // Out: type size color; In: the same plus layout, number
  EXPECT_EQ(find(prompts, "Out", "type").text.context,
            "row 1: 6, 6, 6; row 2: 4, 4, 4; row 3: 5, 5, ");
  EXPECT_EQ(find(prompts, "In", "number").text.context,
            "row 1: 2, 4, 1; row 2: 4, 1, 2; row 3: 1, 2, ");
}

TEST(TextPrompt, AngleIsAppendedTimesOneHundred) {
  const std::filesystem::path dir = testing::reference_fixtures_dir() / "raven";
  const auto p = engine::read_problem_xml(dir / "center_single/RAVEN_0_train.xml");
  const TextPrompt t = entangled_prompt(p, {.angle = true});
  EXPECT_EQ(t.context.substr(0, 26), "row 1: (5,0.2,90,300), (5,");
  EXPECT_EQ(t.choices[0], "(6,0.4,30,400)");
  EXPECT_EQ(disentangled_prompts(p, {.angle = true}).size(), 4u);
}

// A matrix of N x N panels (the larger variants): rows follow the problem's own panel count.
TEST(TextPrompt, ContextRowsFollowThePanelCount) {
  engine::Problem p;
  p.config = engine::ConfigId::kCenterSingle;
  for (int i = 0; i < 8; ++i) {
    const engine::Entity e{.slot = 0, .type = 1, .size = i % 6, .color = i, .angle = 3};
    p.context[static_cast<std::size_t>(i)].components = {{.uniformity = 0, .entities = {e}}};
    p.candidates[static_cast<std::size_t>(i)].components = {{.uniformity = 0, .entities = {e}}};
  }
  const TextPrompt t = entangled_prompt(p, {});
  EXPECT_EQ(t.context,
            "row 1: (3,0.1,0), (3,0.2,10), (3,0.3,20); row 2: (3,0.4,30), (3,0.5,40), (3,0.6,50); "
            "row 3: (3,0.1,60), (3,0.2,70), ");
  EXPECT_NE(t.prompt.find("\nAnswer #7: (3,0.2,70)\nCorrect Answer #"), std::string::npos);
}

}  // namespace
}  // namespace rave::evaluation
