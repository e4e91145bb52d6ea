// data/ holds problems rave generated (scripts/make_data.sh). Regenerating them from the seed must
// give the same bytes: any change to the generator's output (sampling, answer sets, rendering, file
// encoding) shows up here.
#include <gtest/gtest.h>

#include "common/atomic_file.hpp"
#include "engine/encode.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/xml_io.hpp"
#include "engine/generate.hpp"
#include "tests/support/test_support.hpp"

namespace rave::engine {
namespace {

constexpr std::uint64_t kDataSeed = 2019;  // scripts/make_data.sh

class GoldenData : public ::testing::TestWithParam<AnswerStrategy> {};

TEST_P(GoldenData, RegeneratingGivesTheSameBytes) {
  const auto strategy = GetParam();
  const auto root = testing::source_dir() / "data" / std::string(strategy_name(strategy));
  for (const auto& config : all_configurations()) {
    const auto stem = root / config.folder / "RAVEN_0_train";
    const auto files = encode_problem_files(
        generate_problem(config.id, strategy, kDataSeed, 0),
        {.compress = true, .predict_as_vector = strategy == AnswerStrategy::kFair});
    EXPECT_TRUE(files.xml == read_file(stem.string() + ".xml")) << stem << ".xml changed";
    EXPECT_TRUE(files.npz == read_file(stem.string() + ".npz")) << stem << ".npz changed";
  }
}

// data/variants: 4 x 4 I-RAVEN problems with two confounders per entity (scripts/make_data.sh).
TEST(GoldenData, VariantRegeneratesAndReadsBack) {
  const Variant variant{.grid = 4, .confounders = 2};
  for (const auto& config : all_configurations()) {
    const auto stem = testing::source_dir() / "data" / "variants" / config.folder / "RAVEN_0_train";
    const Problem p =
        generate_problem(config.id, AnswerStrategy::kIRaven, kDataSeed, 0, variant, Split::kTrain);
    const auto files = encode_problem_files(p, {.compress = true});
    EXPECT_TRUE(files.xml == read_file(stem.string() + ".xml")) << stem << ".xml changed";
    EXPECT_TRUE(files.npz == read_file(stem.string() + ".npz")) << stem << ".npz changed";
    const Problem read = read_problem_xml(stem.string() + ".xml");
    EXPECT_EQ(read.variant, variant);
    EXPECT_EQ(read.context, p.context) << stem;
    EXPECT_EQ(read.candidates, p.candidates) << stem;
  }
}

TEST_P(GoldenData, FilesReadBackAsTheirProblem) {
  const auto strategy = GetParam();
  const auto root = testing::source_dir() / "data" / std::string(strategy_name(strategy));
  for (const auto& config : all_configurations()) {
    const auto stem = root / config.folder / "RAVEN_0_train";
    Problem expected = generate_problem(config.id, strategy, kDataSeed, 0);
    Problem read = read_problem_xml(stem.string() + ".xml");
    const NpzFile npz = read_npz(stem.string() + ".npz");
    EXPECT_EQ(npz.target(), *expected.target) << stem;
    for (auto& group : expected.rules)
      for (auto& rule : group.rules)
        rule = {rule.name, rule.attr, 0, false};  // XML keeps no parameters
    expected.target.reset();
    expected.predict.reset();
    EXPECT_TRUE(read == expected) << stem;
  }
}

INSTANTIATE_TEST_SUITE_P(Strategies, GoldenData,
                         ::testing::Values(AnswerStrategy::kRaven, AnswerStrategy::kIRaven,
                                           AnswerStrategy::kFair, AnswerStrategy::kBalanced),
                         [](const auto& info) { return std::string(strategy_name(info.param)); });

}  // namespace
}  // namespace rave::engine
