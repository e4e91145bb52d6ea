// Variants end to end (docs/variants.md): N x N matrices and wide value ranges obey the
// generalized rules (the independent checker of tests/engine/support), every answer strategy keeps
// its contract on the last panel, confounders follow no rule and leave the matrix alone, the
// regimes keep their promises per split, shards make the one-machine dataset, and files round-trip.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/encode.hpp"
#include "engine/formats/layout.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/xml_io.hpp"
#include "engine/generate.hpp"
#include "engine/model/variant_space.hpp"
#include "engine/rules/matrix.hpp"
#include "tests/engine/support/rule_checker_support.hpp"
#include "tests/support/test_support.hpp"

namespace rave::engine {
namespace {

constexpr std::array<AnswerStrategy, 3> kStrategies{AnswerStrategy::kRaven, AnswerStrategy::kIRaven,
                                                    AnswerStrategy::kFair};

// The problem's matrix with its answer in place, row-major.
std::vector<Panel> solved_panels(const Problem& p) {
  std::vector<Panel> panels = p.context;
  panels.push_back(p.candidates[static_cast<std::size_t>(*p.target)]);
  return panels;
}

void expect_answer_contract(const Problem& p, const std::string& where) {
  ASSERT_TRUE(p.target.has_value()) << where;
  for (int i = 0; i < kCandidates; ++i)
    for (int j = i + 1; j < kCandidates; ++j)
      EXPECT_NE(p.candidates[static_cast<std::size_t>(i)],
                p.candidates[static_cast<std::size_t>(j)])
          << where;
}

// Every configuration, strategy and grid: the context has N*N-1 panels and the matrix with its
// answer obeys every rule on N columns (Progression over N panels, Arithmetic over N-1,
// Distribute_N).
TEST(Variant, LargeGridsObeyTheGeneralizedRules) {
  for (int grid : {4, 5, 10})
    for (int c = 0; c < kNumConfigs; ++c)
      for (AnswerStrategy strategy : kStrategies)
        for (std::uint64_t k = 0; k < 3; ++k) {
          const auto id = static_cast<ConfigId>(c);
          const Problem p =
              generate_problem(id, strategy, 11, k, Variant{.grid = grid}, Split::kTrain);
          const std::string where =
              "grid " + std::to_string(grid) + " " + std::string(configuration(id).folder) + " " +
              std::string(strategy_name(strategy)) + " k " + std::to_string(k);
          ASSERT_EQ(static_cast<int>(p.context.size()), grid * grid - 1) << where;
          const auto problems = testing::check_matrix_rules(id, p.rules, solved_panels(p));
          EXPECT_TRUE(problems.empty()) << where << ": " << problems.front();
          expect_answer_contract(p, where);
        }
}

TEST(Variant, WideValueRangesObeyTheRulesInTheirRanges) {
  for (int values : {3, 100, 1000})
    for (int c = 0; c < kNumConfigs; ++c)
      for (std::uint64_t k = 0; k < 4; ++k) {
        const auto id = static_cast<ConfigId>(c);
        const Variant v{.grid = 5, .values = values};
        const Problem p = generate_problem(id, AnswerStrategy::kIRaven, 3, k, v, Split::kTrain);
        const Configuration& wide = variant_space(id, v, std::nullopt).config;
        const auto problems = testing::check_matrix_rules(wide, p.rules, solved_panels(p));
        EXPECT_TRUE(problems.empty())
            << "values " << values << " config " << c << ": " << problems.front();
        expect_answer_contract(p, "values " + std::to_string(values));
      }
}

TEST(Variant, DefaultVariantIsTheOriginalGenerator) {
  for (int c = 0; c < kNumConfigs; ++c)
    for (AnswerStrategy strategy : kStrategies)
      EXPECT_EQ(generate_problem(static_cast<ConfigId>(c), strategy, 5, 3, Variant{}, Split::kTest),
                generate_problem(static_cast<ConfigId>(c), strategy, 5, 3));
}

TEST(Variant, ConfoundersAreNoiseOnTopOfTheSameMatrix) {
  const Variant plain{.grid = 4}, noisy{.grid = 4, .confounders = 5};
  for (int c = 0; c < kNumConfigs; ++c) {
    const auto id = static_cast<ConfigId>(c);
    Problem p = generate_problem(id, AnswerStrategy::kIRaven, 8, 2, noisy, Split::kTrain);
    const Problem q = generate_problem(id, AnswerStrategy::kIRaven, 8, 2, plain, Split::kTrain);
    std::set<int> seen;
    for (int i = 0; i < p.panel_count(); ++i)
      for (ComponentPanel& component : p.panel(i).components) {
        ASSERT_EQ(component.confounders.size(), component.entities.size() * 5);
        for (int level : component.confounders) {
          EXPECT_TRUE(0 <= level && level < noisy.confounder_levels());
          seen.insert(level);
        }
        component.confounders.clear();
      }
    EXPECT_GT(seen.size(), 3u) << "confounders take many levels";
    p.variant = plain;
    EXPECT_EQ(p, q) << "config " << c;
  }
}

bool holds_pair(const Problem& p, const RulePair& pair) {
  for (const RuleGroup& group : p.rules)
    for (const Rule& rule : group.rules)
      if (matches(pair, rule)) return true;
  return false;
}

TEST(Variant, HeldOutPairsNeverInTrainOrValAlwaysInTest) {
  Variant v{.regime = Regime::kHeldOutPairs};
  parse_hold_out("Color:Progression,Number:Arithmetic", v.regime, v);
  for (int c = 0; c < kNumConfigs; ++c)
    for (std::uint64_t k = 0; k < 30; ++k) {
      const Split split = split_of(k, 2, 2);
      const Problem p =
          generate_problem(static_cast<ConfigId>(c), AnswerStrategy::kRaven, 4, k, v, split);
      const bool any = holds_pair(p, v.held_out_pairs[0]) || holds_pair(p, v.held_out_pairs[1]);
      EXPECT_EQ(any, split == Split::kTest) << "config " << c << " k " << k;
    }
}

TEST(Variant, HeldOutAttributeIsConstantInTrainRuledInTest) {
  Variant v{.grid = 4, .regime = Regime::kHeldOutAttribute};
  parse_hold_out("Size", v.regime, v);
  for (std::uint64_t k = 0; k < 30; ++k) {
    const Split split = split_of(k, 2, 2);
    const Problem p =
        generate_problem(ConfigId::kCenterSingle, AnswerStrategy::kRaven, 4, k, v, split);
    EXPECT_EQ(p.rules[0].rules[2].name == RuleName::kConstant, split != Split::kTest) << "k " << k;
  }
}

std::set<int> levels_of(const Problem& p) {
  std::set<int> out;
  for (int i = 0; i < p.panel_count(); ++i)
    for (const ComponentPanel& component : p.panel(i).components)
      for (const Entity& e : component.entities) out.insert(e.color);
  return out;
}

TEST(Variant, ValueRegimesDrawTrainAndTestFromDisjointLevels) {
  for (Regime regime : {Regime::kInterpolation, Regime::kExtrapolation}) {
    const Variant v{.values = 30, .regime = regime};
    std::set<int> train, test;
    for (std::uint64_t k = 0; k < 40; ++k) {
      const Split split = split_of(k, 2, 2);
      const Problem p =
          generate_problem(ConfigId::kCenterSingle, AnswerStrategy::kIRaven, 6, k, v, split);
      (split == Split::kTest ? test : train).merge(levels_of(p));
    }
    for (int level : test)
      EXPECT_FALSE(train.count(level)) << regime_name(regime) << " level " << level;
    if (regime == Regime::kInterpolation) {
      for (int level : train) EXPECT_EQ(level % 2, 1);
    }
    EXPECT_GT(train.size(), 4u);
    EXPECT_GT(test.size(), 4u);
  }
}

TEST(Variant, FilesRoundTripWithTheVariant) {
  Variant v{.grid = 5, .values = 50, .confounders = 2, .regime = Regime::kHeldOutPairs};
  parse_hold_out("Size:Progression", v.regime, v);
  const Problem p =
      generate_problem(ConfigId::kOutInGrid, AnswerStrategy::kIRaven, 2, 9, v, Split::kTest);
  const ProblemFiles files = encode_problem_files(p, {.symbolic_only = true});
  Problem back = parse_problem_xml(files.xml, "p.xml");
  back.target = p.target;
  back.predict = p.predict;
  EXPECT_EQ(back.context, p.context);
  EXPECT_EQ(back.candidates, p.candidates);
  EXPECT_EQ(back.variant, p.variant);
  EXPECT_EQ(back.split, p.split);
  const NpzFile npz = parse_npz(files.npz, "p.npz");
  EXPECT_EQ(npz.target(), *p.target);
  EXPECT_FALSE(npz.contents().image.size() > 0) << "symbolic only: no image member";
}

TEST(Variant, ImagesHoldEveryPanelOfALargeGrid) {
  const Problem p = generate_problem(ConfigId::kDistributeFour, AnswerStrategy::kRaven, 2, 1,
                                     Variant{.grid = 4}, Split::kTrain);
  const NpzFile npz = parse_npz(encode_problem_files(p).npz, "p.npz");
  int grid = 0;
  EXPECT_EQ(npz.grid_image(grid).size(),
            static_cast<std::size_t>(4 * 4 - 1 + kCandidates) * 160 * 160);
  EXPECT_EQ(grid, 4);
}

}  // namespace
}  // namespace rave::engine
