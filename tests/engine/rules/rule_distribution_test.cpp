// The accepted rule distribution of docs/rules.md#sampling-and-pruning, reproduced statistically:
// thousands of accepted draws per configuration; each (rule, parameter) frequency per group and
// component is compared with docs/rules.md's table's exact probability within 5 binomial standard
// deviations, and the mean number of tries with 1 / P(accept) within 5 standard errors (geometric
// distribution). Seeds are fixed, so the test is deterministic; a false alarm at 5 sigma over all
// cells has probability below 1e-3.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>

#include "engine/rules/matrix.hpp"

namespace rave::engine {
namespace {

using N = RuleName;
using A = RuleAttr;
using Key = std::tuple<RuleName, RuleAttr, int>;
using Table = std::map<Key, double>;

// docs/rules.md#sampling-and-pruning, transcribed: accepted probability of each (rule, attr, value)
// per group and layout.
Table default_type() {
  return {
      {{N::kProgression, A::kType, -2}, 1.0 / 12},   {{N::kProgression, A::kType, -1}, 1.0 / 12},
      {{N::kProgression, A::kType, 1}, 1.0 / 12},    {{N::kProgression, A::kType, 2}, 1.0 / 12},
      {{N::kDistributeThree, A::kType, 0}, 1.0 / 3}, {{N::kConstant, A::kType, 0}, 1.0 / 3}};
}

Table default_entity(A attr) {
  Table t;
  for (int v : {-2, -1, 1, 2}) t[{N::kProgression, attr, v}] = 1.0 / 16;
  for (int v : {1, -1}) t[{N::kArithmetic, attr, v}] = 1.0 / 8;
  t[{N::kDistributeThree, attr, 0}] = 1.0 / 4;
  t[{N::kConstant, attr, 0}] = 1.0 / 4;
  return t;
}

Table single_slot_group0() { return {{{N::kConstant, A::kNumberPosition, 0}, 1.0}}; }

Table four_slot_group0() {
  Table t;
  for (int v : {-1, 1}) {
    t[{N::kProgression, A::kNumber, v}] = 1.0 / 24;
    t[{N::kProgression, A::kPosition, v}] = 1.0 / 24;
    t[{N::kArithmetic, A::kNumber, v}] = 1.0 / 12;
    t[{N::kArithmetic, A::kPosition, v}] = 1.0 / 12;
  }
  t[{N::kDistributeThree, A::kNumber, 0}] = 1.0 / 6;
  t[{N::kDistributeThree, A::kPosition, 0}] = 1.0 / 6;
  t[{N::kConstant, A::kNumberPosition, 0}] = 1.0 / 6;
  return t;
}

Table nine_slot_group0() {
  Table t;
  for (int v : {-2, -1, 1, 2}) {
    t[{N::kProgression, A::kNumber, v}] = 1.0 / 28;
    t[{N::kProgression, A::kPosition, v}] = 1.0 / 28;
  }
  for (int v : {1, -1}) {
    t[{N::kArithmetic, A::kNumber, v}] = 1.0 / 14;
    t[{N::kArithmetic, A::kPosition, v}] = 1.0 / 14;
  }
  for (A attr : {A::kNumber, A::kPosition}) t[{N::kDistributeThree, attr, 0}] = 1.0 / 7;
  t[{N::kConstant, A::kNumberPosition, 0}] = 1.0 / 7;
  return t;
}

Table out_size() {
  return {{{N::kProgression, A::kSize, -1}, 0.1},
          {{N::kProgression, A::kSize, 1}, 0.1},
          {{N::kDistributeThree, A::kSize, 0}, 0.4},
          {{N::kConstant, A::kSize, 0}, 0.4}};
}

Table out_color() { return {{{N::kConstant, A::kColor, 0}, 1.0}}; }

Table in_grid_size() {
  return {{{N::kProgression, A::kSize, -1}, 1.0 / 14},   {{N::kProgression, A::kSize, 1}, 1.0 / 14},
          {{N::kArithmetic, A::kSize, 1}, 1.0 / 7},      {{N::kArithmetic, A::kSize, -1}, 1.0 / 7},
          {{N::kDistributeThree, A::kSize, 0}, 2.0 / 7}, {{N::kConstant, A::kSize, 0}, 2.0 / 7}};
}

// The four expected tables of one component, by layout name.
std::array<Table, 4> expected_for(std::string_view layout) {
  std::array<Table, 4> t{single_slot_group0(), default_type(), default_entity(A::kSize),
                         default_entity(A::kColor)};
  if (layout == "Distribute_Four" || layout == "In_Distribute_Four") t[0] = four_slot_group0();
  if (layout == "Distribute_Nine") t[0] = nine_slot_group0();
  if (layout == "Out_Center_Single") {
    t[2] = out_size();
    t[3] = out_color();
  }
  if (layout == "In_Distribute_Four") t[2] = in_grid_size();
  return t;
}

struct Expectation {
  ConfigId id;
  double accept;  // P(accept) per try, docs/rules.md#sampling-and-pruning
  int draws;
  const char* name;
};

class RuleDistribution : public ::testing::TestWithParam<Expectation> {};

TEST_P(RuleDistribution, FrequenciesAndTriesMatchSpecTable) {
  const Expectation e = GetParam();
  const Configuration& config = configuration(e.id);
  const std::size_t comps = config.components.size();
  std::vector<std::array<std::map<Key, int>, 4>> counts(comps);
  Rng rng(0xD15C0 + static_cast<std::uint64_t>(config_index(e.id)));
  double tries_sum = 0;
  for (int i = 0; i < e.draws; ++i) {
    std::vector<LayoutConstraints> narrowed;
    int tries = 0;
    const auto rules = sample_rules(config, rng, narrowed, tries);
    ASSERT_EQ(rules.size(), comps);
    ASSERT_EQ(narrowed.size(), comps);
    tries_sum += tries;
    for (std::size_t c = 0; c < comps; ++c)
      for (std::size_t g = 0; g < 4; ++g) {
        const Rule& r = rules[c].rules[g];
        ++counts[c][g][{r.name, r.attr, r.value}];
      }
  }
  const double n = e.draws;
  for (std::size_t c = 0; c < comps; ++c) {
    const auto expected = expected_for(config.components[c].layout.name);
    for (std::size_t g = 0; g < 4; ++g) {
      double total_p = 0;
      for (const auto& [key, p] : expected[g]) {
        total_p += p;
        const auto it = counts[c][g].find(key);
        const double observed = it == counts[c][g].end() ? 0 : it->second;
        const double sigma = std::sqrt(n * p * (1 - p));
        EXPECT_NEAR(observed, n * p, 5 * sigma + 1e-9)
            << config.folder << " component " << c << " group " << g << " "
            << rule_name_text(std::get<0>(key)) << " " << rule_attr_text(std::get<1>(key)) << " "
            << std::get<2>(key);
      }
      EXPECT_NEAR(total_p, 1.0, 1e-12);
      for (const auto& [key, k] : counts[c][g])
        EXPECT_TRUE(expected[g].count(key))
            << config.folder << " drew a rule the narrowing rules out, group " << g << ": "
            << rule_name_text(std::get<0>(key)) << " " << rule_attr_text(std::get<1>(key)) << " "
            << std::get<2>(key) << " x" << k;
    }
  }
  // Tries per accepted draw are geometric: mean 1/p, variance (1-p)/p^2.
  const double mean = tries_sum / n;
  const double se = std::sqrt((1 - e.accept) / (e.accept * e.accept) / n);
  EXPECT_NEAR(mean, 1 / e.accept, 5 * se) << config.folder << " mean tries";
  RecordProperty("mean_tries", std::to_string(mean));
}

INSTANTIATE_TEST_SUITE_P(
    AllConfigurations, RuleDistribution,
    ::testing::Values(
        Expectation{
            .id = ConfigId::kCenterSingle, .accept = 1.0 / 14, .draws = 100000, .name = "Center"},
        Expectation{
            .id = ConfigId::kDistributeFour, .accept = 3.0 / 7, .draws = 100000, .name = "Grid2x2"},
        Expectation{
            .id = ConfigId::kDistributeNine, .accept = 1.0 / 2, .draws = 100000, .name = "Grid3x3"},
        Expectation{.id = ConfigId::kLeftRight, .accept = 1.0 / 98, .draws = 40000, .name = "LR"},
        Expectation{.id = ConfigId::kUpDown, .accept = 1.0 / 98, .draws = 40000, .name = "UD"},
        Expectation{
            .id = ConfigId::kOutInCenter, .accept = 5.0 / 3136, .draws = 20000, .name = "OIC"},
        Expectation{
            .id = ConfigId::kOutInGrid, .accept = 15.0 / 1792, .draws = 40000, .name = "OIG"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(RuleSampling, GivesUpWithALogicErrorWhenNothingFits) {
  Configuration three = configuration(ConfigId::kCenterSingle);
  three.components.push_back(three.components[0]);
  three.components.push_back(three.components[0]);  // 3 components: no draw of 1 or 2 groups fits
  Rng rng(1);
  std::vector<LayoutConstraints> narrowed;
  int tries = 0;
  EXPECT_THROW(sample_rules(three, rng, narrowed, tries), std::logic_error);
}

TEST(RuleSampling, NarrowedRangesBelongToTheAcceptedRules) {
  Rng rng(77);
  for (const Configuration& config : all_configurations())
    for (int i = 0; i < 50; ++i) {
      std::vector<LayoutConstraints> narrowed;
      int tries = 0;
      const auto rules = sample_rules(config, rng, narrowed, tries);
      EXPECT_GE(tries, 1);
      EXPECT_EQ(prune(config, rules), narrowed);
    }
}

}  // namespace
}  // namespace rave::engine
