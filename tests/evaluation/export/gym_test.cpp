// The RL environment's entries (evaluation/export/gym.hpp): the exporter's query and the image
// benchmark's prompt and sheet, redraws exactly where the solver proves no unique answer (checked
// by the Z3 backend, which decides alone), the same bytes for any thread count, and the refusals.
#include "evaluation/export/gym.hpp"

#include <gtest/gtest.h>

#include <numeric>

#include "common/error.hpp"
#include "engine/formats/png.hpp"
#include "engine/generate.hpp"
#include "engine/render/render.hpp"
#include "engine/render/sheet.hpp"
#include "evaluation/export/vlm.hpp"
#include "solver/solver.hpp"

namespace rave::evaluation {
namespace {

using engine::ConfigId;

GymSpec all_configs(GymForm form = GymForm::kText) {
  GymSpec spec;
  for (const auto& c : engine::all_configurations()) spec.configs.push_back(c.id);
  spec.seed = 5;
  spec.form = form;
  return spec;
}

engine::Problem problem_of(const GymSpec& spec, const GymItem& item) {
  return engine::generate_problem(item.config, spec.answers, spec.seed, item.k, spec.variant,
                                  item.split, item.attempt);
}

std::vector<std::uint64_t> first(std::uint64_t n) {
  std::vector<std::uint64_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

TEST(Gym, EntriesInterleaveTheConfigurations) {
  const GymSpec spec = all_configs();
  const auto items = gym_items(spec, first(15), 1);
  for (std::size_t i = 0; i < items.size(); ++i) {
    EXPECT_EQ(items[i].config, spec.configs[i % 7]);
    EXPECT_EQ(items[i].k, i / 7);
  }
}

TEST(Gym, TheTextIsTheExportersQueryWithEveryRow) {
  GymSpec spec = all_configs();
  spec.variant.grid = 4;
  for (const GymItem& item : gym_items(spec, first(14), 2)) {
    const engine::Problem p = problem_of(spec, item);
    ASSERT_EQ(p.target, item.target);
    const TextPrompt t = entangled_prompt(p, {.rows_shown = 0, .prefix = std::string()});
    EXPECT_EQ(item.question, "Complete the Raven's progressive matrix:\n" + t.prompt);
    EXPECT_NE(item.question.find("row 4: "), std::string::npos);
    EXPECT_NE(item.question.find("Answer #7: "), std::string::npos);
    EXPECT_TRUE(item.images.empty());
  }
}

TEST(Gym, TheSheetIsTheImageBenchmarksAndThePanelsAreResized) {
  const GymSpec sheet = all_configs(GymForm::kSheet);
  GymSpec panels = all_configs(GymForm::kPanels);
  panels.image_size = 224;
  const auto a = gym_items(sheet, first(7), 1);
  const auto b = gym_items(panels, first(7), 1);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const engine::Problem p = problem_of(sheet, a[i]);
    const VlmEntry vlm = vlm_entry({.id = "x"}, p, {});
    ASSERT_EQ(a[i].images.size(), 1u);
    EXPECT_EQ(a[i].images[0], vlm.files.at(0).bytes);
    EXPECT_EQ(a[i].question, sheet_prompt(3));
    ASSERT_EQ(b[i].images.size(), 16u);
    EXPECT_EQ(b[i].question, panels_prompt(3));
    for (const std::string& png : b[i].images) {  // IHDR: width and height, big-endian, at 16
      EXPECT_EQ(static_cast<unsigned char>(png.at(18)) * 256 + static_cast<unsigned char>(png[19]),
                224);
      EXPECT_EQ(static_cast<unsigned char>(png.at(22)) * 256 + static_cast<unsigned char>(png[23]),
                224);
    }
  }
}

TEST(Gym, TheSameBytesForAnyThreadCount) {
  for (const auto form : {GymForm::kText, GymForm::kPanels}) {
    GymSpec spec = all_configs(form);
    spec.image_size = 80;
    const auto one = gym_items(spec, first(28), 1), two = gym_items(spec, first(28), 2);
    for (std::size_t i = 0; i < one.size(); ++i) {
      EXPECT_EQ(one[i].question, two[i].question);
      EXPECT_EQ(one[i].images, two[i].images);
      EXPECT_EQ(one[i].attempt, two[i].attempt);
      EXPECT_EQ(one[i].target, two[i].target);
    }
  }
}

// Entries of a RAVEN set with and without redraws, side by side, until `wanted` unrewarded first
// draws are found: each is proved not unique by Z3 alone, and its redraw is proved unique.
TEST(Gym, RewardedExactlyWhereTheAnswerIsProvedUnique) {
  GymSpec mark = all_configs();
  mark.answers = engine::AnswerStrategy::kRaven;
  mark.redraw = false;
  GymSpec redraw = mark;
  redraw.redraw = true;
  solver::Solver z3(solver::Backend::kZ3);
  int unrewarded = 0;
  for (std::uint64_t i = 0; i < 3000 && unrewarded < 3; ++i) {
    const GymItem m = gym_item(mark, i);
    const GymItem r = gym_item(redraw, i);
    ASSERT_TRUE(r.rewarded);
    EXPECT_EQ(m.attempt, 0u);
    const solver::Solution proof = z3.solve(problem_of(redraw, r));
    EXPECT_EQ(proof.verdict, solver::Verdict::kUnique) << i;
    EXPECT_EQ(proof.answer, r.target) << i;
    if (m.rewarded) {
      EXPECT_EQ(r.attempt, 0u);
      EXPECT_EQ(r.question, m.question);
      continue;
    }
    ++unrewarded;
    EXPECT_GT(r.attempt, 0u);
    const solver::Solution no = z3.solve(problem_of(mark, m));
    EXPECT_TRUE(no.verdict != solver::Verdict::kUnique || no.answer != m.target) << i;
    EXPECT_NE(m.verdict, solver::Verdict::kUnique);
  }
  EXPECT_EQ(unrewarded, 3) << "no first draw without a unique answer in 3000 entries";
}

TEST(Gym, RefusalsNameTheProblem) {
  const auto error = [](const GymSpec& spec) {
    try {
      check_gym_spec(spec);
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  GymSpec spec = all_configs(GymForm::kSheet);
  spec.variant.values = 100;
  EXPECT_EQ(error(spec),
            "the sheet form needs values <= 5 (Type has 5 shapes); values 100 has the text form "
            "only");
  spec.form = GymForm::kText;
  EXPECT_EQ(error(spec), "");
  spec.text.rows_shown = 3;
  EXPECT_EQ(error(spec),
            "the text form shows every row (rows_shown 0): the uniqueness proof is over the whole "
            "matrix");
  spec = all_configs(GymForm::kPanels);
  spec.image_size = 0;
  EXPECT_EQ(error(spec), "image_size must be in 1..4096, not 0");
  spec.configs.clear();
  EXPECT_EQ(error(spec), "configs names no configuration");
}

}  // namespace
}  // namespace rave::evaluation
