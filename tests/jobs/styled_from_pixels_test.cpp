// Perception of render styles and of N x N matrices (perception/perceive.hpp with
// perception/styled_parse.hpp): every panel of problems drawn in each style, with more than five
// levels and with confounders, is read back to its exact symbols (Type, Size, Color and every
// drawn confounder), its drawing re-rendered byte for byte, and the solver answers from what was
// read; the original style's N x N panels are read as well.
#include <gtest/gtest.h>

#include "engine/generate.hpp"
#include "engine/model/style_limits.hpp"
#include "engine/render/render.hpp"
#include "jobs/from_pixels.hpp"
#include "perception/perceive.hpp"

namespace rave::perception {
namespace {

using engine::AnswerStrategy;
using engine::ConfigId;

struct Case {
  std::string style;
  engine::Variant variant;
};

// The first difference between one component as drawn and as read ("" when none): its entities
// matched by slot, each with the `drawn` of its `k` confounders that a picture shows.
std::string component_misread(const engine::ComponentPanel& want, const engine::ComponentPanel& got,
                              std::size_t k, std::size_t drawn) {
  if (got.entities.size() != want.entities.size()) return ": entity count";
  for (std::size_t j = 0; j < want.entities.size(); ++j) {
    const engine::Entity& a = want.entities[j];
    std::size_t g = 0;
    while (g < got.entities.size() && got.entities[g].slot != a.slot) ++g;
    if (g == got.entities.size()) return ": slot missed";
    const engine::Entity& b = got.entities[g];
    if (a.type != b.type || a.size != b.size || a.color != b.color)
      return " entity " + std::to_string(j);
    for (std::size_t q = 0; q < drawn; ++q)
      if (want.confounders[j * k + q] != got.confounders[g * k + q])
        return " confounder " + std::to_string(q);
  }
  return "";
}

// Whether what was read is the problem, entity by entity (Angle aside: symmetric shapes hide it),
// with every confounder a picture shows.
std::string misread(const engine::Problem& truth, const PerceivedProblem& seen) {
  const bool out_in = engine::configuration(truth.config).structure == "Out_In";
  const std::size_t k = static_cast<std::size_t>(truth.variant.confounders);
  for (int i = 0; i < truth.panel_count(); ++i)
    for (std::size_t c = 0; c < truth.panel(i).components.size(); ++c) {
      const std::size_t drawn = std::min<std::size_t>(k, out_in && c == 0 ? 2 : 4);
      const std::string wrong =
          component_misread(truth.panel(i).components[c],
                            seen.panels[static_cast<std::size_t>(i)].panel.components[c], k, drawn);
      if (!wrong.empty()) return "panel " + std::to_string(i) + wrong;
    }
  return "";
}

void expect_read(const Case& c, int problems) {
  const engine::RenderStyle style = engine::parse_style(c.style);
  solver::Solver solver(solver::Backend::kHeuristic, solver::readings_options());
  int correct = 0, total = 0;
  for (const engine::Configuration& config : engine::all_configurations()) {
    if (!engine::style_defect(style, c.variant, config.id).empty()) continue;
    for (int k = 0; k < problems; ++k) {
      engine::Problem p = engine::generate_problem(config.id, AnswerStrategy::kIRaven, 41, k,
                                                   c.variant, engine::Split::kTrain);
      p.style = style;
      engine::PanelStack panels;
      engine::render_problem(p, panels);
      const PerceivedProblem seen = perceive(panels.pixels, panels.side,
                                             PerceiveOptions{.style = style, .variant = c.variant});
      const std::string where =
          c.style + " " + std::string(config.folder) + " #" + std::to_string(k);
      ASSERT_TRUE(seen.recognised) << where << ": " << seen.failure;
      EXPECT_TRUE(seen.exact) << where;
      EXPECT_EQ(seen.config, config.id) << where;
      EXPECT_EQ(misread(p, seen), "") << where;
      const solver::Solution s = jobs::solve_perceived(solver, seen);
      correct += s.answer == p.target;
      ++total;
    }
  }
  EXPECT_GE(total, 3 * problems) << c.style;  // a style refuses what it cannot tell apart
  EXPECT_GE(correct, total - 1) << c.style;
}

TEST(StyledPerceive, EveryPresetReadsBack) {
  for (const char* style : {"clean", "dark", "fresh:seed=5", "classic", "bold:size=320"})
    expect_read({style, {}}, 1);
}

TEST(StyledPerceive, MoreLevelsConfoundersAndLargerMatrices) {
  expect_read({"clean:size=320", {.grid = 4, .values = 8}}, 1);
  expect_read({"clean:size=448", {.confounders = 2}}, 1);
  expect_read({"bold:size=480", {.grid = 4, .values = 9, .confounders = 4}}, 1);
}

TEST(StyledPerceive, TheOriginalStylesLargerMatricesReadBack) {
  solver::Solver solver(solver::Backend::kHeuristic, solver::readings_options());
  for (const engine::Configuration& config : engine::all_configurations()) {
    const engine::Variant v{.grid = 4};
    const engine::Problem p =
        engine::generate_problem(config.id, AnswerStrategy::kFair, 3, 2, v, engine::Split::kTrain);
    engine::PanelStack panels;
    engine::render_problem(p, panels);
    const PerceivedProblem seen = perceive(panels.pixels);
    ASSERT_TRUE(seen.recognised) << config.folder << ": " << seen.failure;
    EXPECT_EQ(seen.panel_count(), engine::panel_count(4));
    EXPECT_EQ(seen.variant.grid, 4);
    EXPECT_EQ(jobs::solve_perceived(solver, seen).answer, p.target) << config.folder;
  }
}

}  // namespace
}  // namespace rave::perception
