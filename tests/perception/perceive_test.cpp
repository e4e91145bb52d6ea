// Perception (perception/perceive.hpp): every panel of rave's own renderings and of the original
// generators' images (tests/fixtures, re-rendered and checked against the manifest) is read back
// exactly, in the right configuration, with the true entity among the readings of its slot (up to
// readings that render identically); noisy pixels are read by least difference; images that are no
// RAVEN panels are refused with one line.
#include "perception/perceive.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "common/random.hpp"
#include "engine/encode.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/generate.hpp"
#include "engine/render/render.hpp"
#include "perception/robust_parse.hpp"
#include "tests/engine/support/reference_support.hpp"
#include "tests/support/test_support.hpp"

namespace rave::perception {
namespace {

using engine::AnswerStrategy;
using engine::ConfigId;

// Whether `truth` is among the readings of its slot in `parse` (same Type, Size, Color).
bool read_back(const PanelParse& parse, int component, const engine::Entity& truth) {
  const auto& entities = parse.panel.components[component].entities;
  for (std::size_t j = 0; j < entities.size(); ++j) {
    if (entities[j].slot != truth.slot) continue;
    const auto& list = parse.readings[component][j];
    return std::any_of(list.begin(), list.end(), [&](const engine::Entity& e) {
      return e.type == truth.type && e.size == truth.size && e.color == truth.color;
    });
  }
  return false;
}

// Every entity of `truth` read back, no entity more; returns how many panels differ.
int panels_misread(const engine::Problem& truth, const PerceivedProblem& seen) {
  int misread = 0;
  for (int i = 0; i < engine::kPanels; ++i) {
    bool ok = true;
    for (std::size_t c = 0; c < truth.panel(i).components.size(); ++c) {
      const auto& entities = truth.panel(i).components[c].entities;
      ok = ok && seen.panels[i].panel.components[c].entities.size() == entities.size();
      for (const engine::Entity& e : entities)
        ok = ok && read_back(seen.panels[i], static_cast<int>(c), e);
    }
    misread += !ok;
  }
  return misread;
}

TEST(Perceive, GeneratedProblemsReadBackExactly) {
  for (auto strategy : {AnswerStrategy::kRaven, AnswerStrategy::kIRaven, AnswerStrategy::kFair})
    for (int c = 0; c < engine::kNumConfigs; ++c)
      for (std::uint64_t k = 0; k < 6; ++k) {
        const engine::Problem p =
            engine::generate_problem(static_cast<ConfigId>(c), strategy, 314, k);
        const PerceivedProblem seen = perceive(panel_bytes(engine::render_problem(p)));
        ASSERT_TRUE(seen.recognised) << seen.failure;
        EXPECT_TRUE(seen.exact) << c << " " << k;
        EXPECT_EQ(seen.config, p.config);
        EXPECT_EQ(panels_misread(p, seen), 0) << c << " " << k;
        for (const auto& alternatives : seen.alternatives) EXPECT_FALSE(alternatives.empty());
      }
}

// The original generators' images (re-created from tests/fixtures and checked byte for byte against
// the manifest's hash of the original npz image), read alone, give the XML's symbols back.
class ReferenceImages : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceImages, ReadBackExactlyInTheirConfiguration) {
  int files = 0;
  for (const auto& ref : testing::reference_problems(GetParam())) {
    const engine::Problem truth = engine::testing::read_reference_problem(ref);
    const std::string image = engine::testing::render_image(truth);
    ASSERT_EQ(testing::sha256_hex(image), ref.image_sha256) << ref.xml;
    const PerceivedProblem seen =
        perceive(std::span(reinterpret_cast<const std::uint8_t*>(image.data()), image.size()));
    ASSERT_TRUE(seen.recognised) << ref.xml << ": " << seen.failure;
    EXPECT_TRUE(seen.exact) << ref.xml;
    EXPECT_EQ(seen.config, truth.config) << ref.xml;
    EXPECT_EQ(panels_misread(truth, seen), 0) << ref.xml;
    ++files;
  }
  EXPECT_GE(files, 35);
}

INSTANTIATE_TEST_SUITE_P(Reference, ReferenceImages, ::testing::Values("raven", "iraven", "fair"),
                         [](const auto& info) { return std::string(info.param); });

// O-IG squares of Size 2 and 3 draw the same pixels (half side 5 px): both are readings, and the
// whole-panel readings combine them entity by entity.
TEST(Perceive, SquaresThatLookAlikeKeepBothReadings) {
  engine::Problem p =
      engine::generate_problem(ConfigId::kOutInGrid, AnswerStrategy::kRaven, 314, 0);
  auto& in = p.context[0].components[1].entities;
  in = {engine::Entity{0, 2, 2, 5, 3}, engine::Entity{3, 2, 3, 5, 3}};
  const PerceivedProblem seen = perceive(panel_bytes(engine::render_problem(p)));
  ASSERT_TRUE(seen.recognised) << seen.failure;
  const auto& readings = seen.panels[0].readings[1];
  ASSERT_EQ(readings.size(), 2u);
  for (const auto& list : readings) {
    ASSERT_EQ(list.size(), 2u);
    EXPECT_EQ(list[0].size + list[1].size, 5);  // 2 and 3
  }
  EXPECT_EQ(seen.alternatives[0].size(), 4u);  // 2 x 2 combinations
}

// Gaussian noise (sigma 10, clipped) on every pixel: no parse is exact, and the least-difference
// parse reads almost every panel right, its render as close to the noisy pixels as the truth's (the
// noise's own mean absolute value: about 4 on white, where clipping halves it, 8 on ink).
TEST(Perceive, NoisyPanelsAreReadByLeastDifference) {
  std::mt19937_64 gen(7);
  std::normal_distribution<double> noise(0.0, 10.0);
  int panels = 0, misread = 0;
  for (int c = 0; c < engine::kNumConfigs; ++c) {
    const engine::Problem p =
        engine::generate_problem(static_cast<ConfigId>(c), AnswerStrategy::kIRaven, 99, 1);
    const std::vector<std::uint8_t> clean = panel_bytes(engine::render_problem(p));
    std::vector<std::uint8_t> images = clean;
    for (auto& v : images)
      v = static_cast<std::uint8_t>(std::clamp(std::lround(v + noise(gen)), 0L, 255L));
    const PerceivedProblem seen = perceive(images);
    ASSERT_TRUE(seen.recognised) << seen.failure;
    EXPECT_FALSE(seen.exact);
    EXPECT_EQ(seen.config, p.config);
    for (int i = 0; i < engine::kPanels; ++i) {
      const std::size_t at = static_cast<std::size_t>(i) * engine::kPanelPixels;
      const double truth = mean_absolute_difference(clean.data() + at, images.data() + at);
      EXPECT_GT(seen.residual[i], 2.0) << c << " panel " << i;
      EXPECT_LE(seen.residual[i], truth + 0.5) << c << " panel " << i;
    }
    misread += panels_misread(p, seen);
    panels += engine::kPanels;
  }
  EXPECT_LE(misread, panels / 20) << misread << " of " << panels;
}

TEST(Perceive, ImagesThatAreNoRavenPanelsAreRefused) {
  std::vector<std::uint8_t> random(static_cast<std::size_t>(engine::kPanels) *
                                   engine::kPanelPixels);
  Rng rng(3);
  for (auto& v : random) v = static_cast<std::uint8_t>(rng.below(256));
  const PerceivedProblem noise = perceive(random);
  EXPECT_FALSE(noise.recognised);
  EXPECT_NE(noise.failure.find("not RAVEN panels"), std::string::npos) << noise.failure;
  EXPECT_EQ(noise.failure.find('\n'), std::string::npos);
  const PerceivedProblem small = perceive(std::span<const std::uint8_t>(random).first(1000));
  EXPECT_FALSE(small.recognised);
  EXPECT_NE(small.failure.find("expected 16 panels"), std::string::npos) << small.failure;
  std::vector<std::uint8_t> blank(random.size(), 255);
  EXPECT_FALSE(perceive(blank).recognised);  // no entity anywhere: no configuration allows it
}

}  // namespace
}  // namespace rave::perception
