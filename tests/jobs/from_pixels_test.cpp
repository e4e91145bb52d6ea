// Solving from the images alone (jobs/from_pixels.hpp): the original generators' images and
// rave's own renderings are answered as the symbols are, the readings that render identically are
// marginalised (the answer stays explained), an answer whose image a distractor shares is
// "ambiguous: identical images", noisy pixels still solve, and images that are no RAVEN panels
// give `none` with no answer.
#include "jobs/from_pixels.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "engine/formats/npz.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/generate.hpp"
#include "engine/render/render.hpp"
#include "tests/engine/support/reference_support.hpp"
#include "tests/support/test_support.hpp"

namespace rave::jobs {
namespace {

using namespace rave::engine;
using namespace rave::solver;

using engine::AnswerStrategy;
using engine::ConfigId;
using perception::panel_bytes;

Solution solve_images(Solver& solver, std::span<const std::uint8_t> images) {
  return solve_perceived(solver, perception::perceive(images));
}

// The original generators' images, re-created from tests/fixtures and checked against the
// manifest's hash of the original npz image.
TEST(FromPixels, ReferenceProblemsAreAnsweredFromTheirImages) {
  int files = 0;
  Solver solver(Backend::kHeuristic, readings_options());
  for (const std::string set : {"raven", "iraven", "fair"})
    for (const auto& ref : rave::testing::reference_problems(set)) {
      const std::string image =
          engine::testing::render_image(engine::testing::read_reference_problem(ref));
      ASSERT_EQ(rave::testing::sha256_hex(image), ref.image_sha256) << ref.xml;
      const Solution s = solve_images(
          solver, std::span(reinterpret_cast<const std::uint8_t*>(image.data()), image.size()));
      EXPECT_EQ(s.answer, ref.target) << ref.xml;
      ++files;
    }
  EXPECT_EQ(files, 140);
}

// Every configuration and strategy: the target is always among the consistent candidates (the
// readings marginalised), and the answer is the one the true symbols give (some generated problems
// are ambiguous as symbols too) unless the answer's image is a distractor's.
TEST(FromPixels, GeneratedProblemsAreAnsweredAsTheirSymbolsAre) {
  Solver pixels(Backend::kHeuristic, readings_options()),
      symbols(Backend::kHeuristic, readings_options());
  int problems = 0, agree = 0;
  for (auto strategy : {AnswerStrategy::kRaven, AnswerStrategy::kIRaven, AnswerStrategy::kFair})
    for (int c = 0; c < engine::kNumConfigs; ++c)
      for (std::uint64_t k = 0; k < 25; ++k) {
        const engine::Problem p =
            engine::generate_problem(static_cast<ConfigId>(c), strategy, 55, k);
        const Solution s = solve_images(pixels, panel_bytes(engine::render_problem(p)));
        const Solution truth = symbols.solve(p);
        ++problems;
        agree += s.answer == truth.answer;
        EXPECT_TRUE((s.consistent >> *p.target) & 1u) << c << " " << k;
        if (s.answer != truth.answer) {
          EXPECT_TRUE(s.reason.starts_with("identical images")) << c << " " << k << s.reason;
        }
      }
  EXPECT_GE(agree, problems - 3);
}

TEST(FromPixels, AnAnswerWhoseImageADistractorSharesIsAmbiguous) {
  engine::Problem p =
      engine::generate_problem(ConfigId::kDistributeFour, AnswerStrategy::kIRaven, 8, 2);
  const int twin = (*p.target + 3) % engine::kCandidates;
  p.candidates[twin] = p.candidates[*p.target];
  Solver solver(Backend::kHeuristic, readings_options());
  const Solution s = solve_images(solver, panel_bytes(engine::render_problem(p)));
  EXPECT_EQ(s.verdict, Verdict::kAmbiguous);
  EXPECT_TRUE(s.answer == p.target || s.answer == twin);
  EXPECT_EQ(s.reason, "identical images: candidates " + std::to_string(std::min(twin, *p.target)) +
                          " and " + std::to_string(std::max(twin, *p.target)));
}

// Marginalising needs readings beyond the first: with only each panel's first reading, some O-IG
// problems lose their answer; with all of them, none does.
TEST(FromPixels, ReadingsThatRenderIdenticallyAreMarginalised) {
  Solver solver(Backend::kHeuristic, readings_options());
  int needed = 0;
  for (std::uint64_t k = 0; k < 80; ++k) {
    const engine::Problem p =
        engine::generate_problem(ConfigId::kOutInGrid, AnswerStrategy::kFair, 66, k);
    const perception::PerceivedProblem seen =
        perception::perceive(panel_bytes(engine::render_problem(p)));
    ASSERT_TRUE(seen.recognised);
    EXPECT_TRUE((solve_perceived(solver, seen).consistent >> *p.target) & 1u) << k;
    auto first_only = seen.alternatives;
    for (auto& list : first_only) list.resize(1);
    needed +=
        !((solve_readings(solver, seen.config, seen.variant, first_only).consistent >> *p.target) &
          1u);
  }
  EXPECT_GT(needed, 0);
}

TEST(FromPixels, Z3AgreesOnTheConsistentSetFromPixels) {
  Solver heuristic(Backend::kHeuristic, readings_options()), z3(Backend::kZ3, readings_options());
  for (int c = 0; c < engine::kNumConfigs; ++c)
    for (std::uint64_t k = 0; k < 3; ++k) {
      const engine::Problem p =
          engine::generate_problem(static_cast<ConfigId>(c), AnswerStrategy::kRaven, 77, k);
      const perception::PerceivedProblem seen =
          perception::perceive(panel_bytes(engine::render_problem(p)));
      const Solution h = solve_perceived(heuristic, seen), z = solve_perceived(z3, seen);
      EXPECT_EQ(h.consistent, z.consistent) << c << " " << k;
      EXPECT_EQ(h.verdict, z.verdict) << c << " " << k;
      EXPECT_EQ(z.answer, p.target) << c << " " << k;
    }
}

TEST(FromPixels, NoisyImagesStillSolve) {
  std::mt19937_64 gen(10);
  std::normal_distribution<double> noise(0.0, 10.0);
  Solver solver(Backend::kHeuristic, readings_options());
  int problems = 0, correct = 0;
  for (int c = 0; c < engine::kNumConfigs; ++c)
    for (std::uint64_t k = 0; k < 3; ++k) {
      const engine::Problem p =
          engine::generate_problem(static_cast<ConfigId>(c), AnswerStrategy::kIRaven, 88, k);
      std::vector<std::uint8_t> images = panel_bytes(engine::render_problem(p));
      for (auto& v : images)
        v = static_cast<std::uint8_t>(std::clamp(std::lround(v + noise(gen)), 0L, 255L));
      ++problems;
      correct += solve_images(solver, images).answer == p.target;
    }
  EXPECT_GE(correct, problems - 2) << correct << " of " << problems;
}

TEST(FromPixels, ImagesThatAreNoRavenPanelsGiveNoneAndNoAnswer) {
  std::vector<std::uint8_t> random(static_cast<std::size_t>(engine::kPanels) *
                                   engine::kPanelPixels);
  std::mt19937 gen(4);
  for (auto& v : random) v = static_cast<std::uint8_t>(gen() & 0xFF);
  Solver solver(Backend::kHeuristic, readings_options());
  const Solution s = solve_images(solver, random);
  EXPECT_EQ(s.verdict, Verdict::kNone);
  EXPECT_FALSE(s.answer.has_value());
  EXPECT_NE(s.reason.find("not RAVEN panels"), std::string::npos) << s.reason;
}

}  // namespace
}  // namespace rave::jobs
