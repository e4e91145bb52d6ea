// The text prompts against golden files written by hand from the reference XML (one problem per
// configuration: tests/fixtures/reference/raven/<configuration>/RAVEN_0_train.xml), and the
// disentangled form and larger panel counts on small hand-made problems.
#include "evaluation/export/text_prompt.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
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
  // The goldens are IBM's first wrapper (ibm-2024) without a prefix.
  const TextPrompt t = entangled_prompt(p, {.style = PromptStyle::kIbm2024, .prefix = ""});
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
  ASSERT_EQ(prompts.size(), 4u);  // type, size, color of the one entity, and master
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
  ASSERT_EQ(prompts.size(), 6u);  // type, size, color, layout, number, master
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
  ASSERT_EQ(prompts.size(), 10u);  // Out: type size color master; In: + layout, number
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
  EXPECT_EQ(disentangled_prompts(p, {.angle = true}).size(), 5u);
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
  EXPECT_TRUE(t.prompt.starts_with("Only return the missing numbers!\nrow 1: (3,0.1,0), "));
  EXPECT_NE(t.prompt.find(", \nAnswer set:\nAnswer #0: (3,0.1,0)\n"), std::string::npos);
  EXPECT_TRUE(t.prompt.ends_with("\nAnswer #7: (3,0.2,70)"));
}

engine::Problem single_shape_problem(int grid, int confounders) {
  engine::Problem p;
  p.config = engine::ConfigId::kCenterSingle;
  p.variant = {.grid = grid, .values = 100, .confounders = confounders};
  p.context.resize(static_cast<std::size_t>(grid * grid - 1));
  const auto panel = [&](int i) {
    const engine::Entity e{
        .slot = 0, .type = i % 100, .size = (7 * i) % 100, .color = 99 - i % 100};
    std::vector<int> conf;
    for (int k = 0; k < confounders; ++k) conf.push_back((i + 10 * k) % 100);
    return engine::Panel{{{.uniformity = 0, .entities = {e}, .confounders = conf}}};
  };
  for (std::size_t i = 0; i < p.context.size(); ++i) p.context[i] = panel(static_cast<int>(i));
  for (std::size_t i = 0; i < 8; ++i) p.candidates[i] = panel(static_cast<int>(100 + i));
  return p;
}

// IBM's nshow: the last K rows of an N x N matrix, relabelled from row 1; offsets off, confounders
// after the three attributes (IBM's I-RAVEN-X settings).
TEST(TextPrompt, Ibm2025ShowsTheLastRowsWithConfounders) {
  const engine::Problem p = single_shape_problem(4, 2);
  const TextPrompt t = entangled_prompt(p, {.rows_shown = 2, .offset = false});
  EXPECT_EQ(t.context.substr(0, 32), "row 1: (8,5.6,910,8,18), (9,6.3,");
  EXPECT_NE(t.context.find("; row 2: (12,8.4,870,12,22), "), std::string::npos);
  EXPECT_EQ(t.context.find("row 3"), std::string::npos);
  EXPECT_EQ(t.choices[0], "(0,0.0,990,0,10)");  // candidate levels 100 % 100 = 0
  EXPECT_NE(entangled_prompt(p, {.rows_shown = 0}).context.find("; row 4: (14,"),
            std::string::npos);
  const auto branches = disentangled_prompts(p, {.offset = false});
  ASSERT_EQ(branches.size(), 6u);  // type size color confounder0 confounder1 master
  EXPECT_EQ(branches[3].attribute, "confounder0");
  EXPECT_EQ(branches[4].text.choices[1], "11");
}

// IBM's "<p::v-1,p::v,p::v+1>": p ~ U[u, 1] rounded to 2 decimals, the rest split at random, the
// neighbours wrapping at 0 and maxval - 1; the same seed gives the same text.
TEST(TextPrompt, UncertainValuesAreIbmsDistributions) {
  const engine::Problem p = single_shape_problem(3, 0);
  const TextOptions o{
      .offset = false, .scaling = false, .uncertainty = 0.7, .uncertainty_seed = 1234};
  const TextPrompt t = entangled_prompt(p, o);
  // np.random.seed(1234): uniform(0.7, 1) = 0.7574..., uniform(0, 0.24) = 0.1493..., swapped.
  EXPECT_EQ(t.context.substr(0, 34), "row 1: (<0.09::99,0.76::0,0.15::1>");
  EXPECT_EQ(entangled_prompt(p, o).prompt, t.prompt);
  TextOptions other = o;
  other.uncertainty_seed = 1235;
  EXPECT_NE(entangled_prompt(p, other).prompt, t.prompt);
  EXPECT_THROW(disentangled_prompts(p, o), UsageError);
}

TEST(TextPrompt, StylesRefuseWhatTheirCodeCannotWrite) {
  EXPECT_THROW(check_text_options({.style = PromptStyle::kIbm2024, .offset = false}), UsageError);
  EXPECT_THROW(check_text_options({.style = PromptStyle::kLmRaven, .uncertainty = 0.5}),
               UsageError);
  EXPECT_THROW(check_text_options({.style = PromptStyle::kLmRaven, .rows_shown = 4}), UsageError);
  EXPECT_THROW(check_text_options({.uncertainty = 1.5}), UsageError);
  const engine::Problem p = single_shape_problem(4, 0);
  EXPECT_THROW(entangled_prompt(p, {.rows_shown = 5}), UsageError);
  // Beyond lm-raven's 3x3 (an extension): the last 3 rows of N cells.
  const TextPrompt lm = entangled_prompt(p, {.style = PromptStyle::kLmRaven});
  EXPECT_TRUE(lm.context.starts_with("row 1: (6,"));  // panel 4, the first of row 2 of 4
  EXPECT_EQ(std::count(lm.context.begin(), lm.context.end(), '('), 11);
}

// lm-raven: the context after "let's think step by step. ", one prompt per candidate ending in
// ";" (none with one row, which has no row label).
TEST(TextPrompt, LmRavenPromptsOneCandidateAtATime) {
  const engine::Problem p = single_shape_problem(3, 0);
  const TextPrompt t = entangled_prompt(p, {.style = PromptStyle::kLmRaven});
  EXPECT_TRUE(t.prompt.empty());
  ASSERT_EQ(t.choice_prompts.size(), 8u);
  EXPECT_EQ(t.choice_prompts[2], "let's think step by step. " + t.context + t.choices[2] + ";");
  const TextPrompt one = entangled_prompt(p, {.style = PromptStyle::kLmRaven, .rows_shown = 1});
  EXPECT_EQ(one.context, "(8,4.3,930), (9,5.0,920), ");
  EXPECT_EQ(one.choice_prompts[0], "let's think step by step. " + one.context + one.choices[0]);
}

// IBM's Solver_pred (classmode pred): the prefix and the context, no answer set; "(" opens the
// missing panel in the entangled query and on each master branch, not on the attribute branches;
// its RPM gets no nconf, so no confounders are shown.
TEST(TextPrompt, PredQueriesAreTheContextWithoutAnAnswerSet) {
  const engine::Problem p = single_shape_problem(10, 2);
  const TextOptions o{.offset = false, .classmode = ClassMode::kPred};
  const TextPrompt t = entangled_prompt(p, o);
  EXPECT_EQ(t.prompt, "Only return the missing numbers!\n" + t.context + "(");
  EXPECT_EQ(t.prompt.find("Answer"), std::string::npos);
  EXPECT_EQ(t.choices[0], "(0,0.0,990)");  // no confounders
  EXPECT_EQ(t.context, entangled_prompt(single_shape_problem(10, 0), {.offset = false}).context);
  const auto branches = disentangled_prompts(p, o);
  ASSERT_EQ(branches.size(), 4u);  // type size color master
  for (const auto& b : branches)
    EXPECT_EQ(b.text.prompt, "Only return the missing numbers!\n" + b.text.context +
                                 (b.attribute == "master" ? "(" : ""));
  const TextPrompt old =
      entangled_prompt(p, {.style = PromptStyle::kIbm2024,
                           .rows_shown = 2,
                           .prefix = "",
                           .classmode = ClassMode::kPred});  // 2ada9bb's Solver_pred passes nshow
  EXPECT_EQ(old.prompt, old.context + "(");
  EXPECT_TRUE(old.context.starts_with("row 1: (") &&
              old.context.find("row 3") == std::string::npos);
}

TEST(TextPrompt, PredRefusesWhatSolverPredCannotWrite) {
  EXPECT_THROW(check_text_options({.style = PromptStyle::kLmRaven, .classmode = ClassMode::kPred}),
               UsageError);
  EXPECT_THROW(check_text_options({.uncertainty = 0.5, .classmode = ClassMode::kPred}), UsageError);
  EXPECT_THROW(check_text_options({.style = PromptStyle::kIbm2024, .rows_shown = 2}), UsageError);
  EXPECT_EQ(parse_classmode("pred"), ClassMode::kPred);
  EXPECT_EQ(classmode_name(ClassMode::kDisc), "disc");
  EXPECT_FALSE(parse_classmode("generative"));
}

}  // namespace
}  // namespace rave::evaluation
