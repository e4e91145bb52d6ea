// The accepted rule distribution of a variant (docs/variants.md#rules-on-n-columns), statistically:
// pruning keeps a (rule, parameter) when it can hold on N columns with the ranges, and the draws
// that survive keep the table's prior (rows equally likely, then parameters), renormalized over
// what survives, independently per group (as the original's, docs/rules.md#sampling-and-pruning).
// Thousands of accepted draws per configuration: each frequency within 5 binomial standard
// deviations of that prior, and the supports the docs name by hand (a 10 x 10 matrix leaves Type
// Constant: 5 shapes allow neither Distribute_10 nor a 10-panel Progression). Seeds are fixed.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <tuple>

#include "engine/rules/matrix.hpp"
#include "engine/rules/variant_rules.hpp"

namespace rave::engine {
namespace {

using Key = std::tuple<RuleName, RuleAttr, int>;
using Counts = std::map<Key, int>;

struct Case {
  ConfigId id;
  Variant variant;
  int draws;
};

// counts[component][group] of `draws` accepted rule groups.
std::vector<std::array<Counts, kNumRuleGroups>> draw_rules(const Case& c) {
  const MatrixModel model = matrix_model(c.id, c.variant);
  std::vector<std::array<Counts, kNumRuleGroups>> counts(model.config->components.size());
  Rng rng(0x5EED + static_cast<std::uint64_t>(config_index(c.id)) * 31 +
          static_cast<std::uint64_t>(c.variant.grid));
  for (int i = 0; i < c.draws; ++i) {
    std::vector<LayoutConstraints> narrowed;
    int tries = 0;
    const auto groups = sample_rules(model, rng, narrowed, tries);
    for (std::size_t comp = 0; comp < groups.size(); ++comp)
      for (std::size_t g = 0; g < kNumRuleGroups; ++g) {
        const Rule& r = groups[comp].rules[g];
        ++counts[comp][g][{r.name, r.attr, r.value}];
      }
  }
  return counts;
}

void expect_prior_on_support(const Case& c) {
  const auto counts = draw_rules(c);
  const VariantRules& table = variant_rules(c.id, c.variant, std::nullopt);
  const double n = c.draws;
  for (std::size_t comp = 0; comp < counts.size(); ++comp)
    for (int g = 0; g < kNumRuleGroups; ++g) {
      double support = 0;
      for (const auto& [key, k] : counts[comp][static_cast<std::size_t>(g)]) {
        const double prior = table.prior(
            static_cast<int>(comp), g, Rule{std::get<0>(key), std::get<1>(key), std::get<2>(key)});
        EXPECT_GT(prior, 0) << "a rule outside the table was drawn";
        support += prior;
      }
      for (const auto& [key, k] : counts[comp][static_cast<std::size_t>(g)]) {
        const double p = table.prior(static_cast<int>(comp), g,
                                     Rule{std::get<0>(key), std::get<1>(key), std::get<2>(key)}) /
                         support;
        EXPECT_NEAR(k, n * p, 5 * std::sqrt(n * p * (1 - p)) + 1e-9)
            << configuration(c.id).folder << " grid " << c.variant.grid << " component " << comp
            << " group " << g << " " << rule_name_text(std::get<0>(key)) << " "
            << rule_attr_text(std::get<1>(key)) << " " << std::get<2>(key);
      }
    }
}

TEST(VariantRuleDistribution, PriorRenormalizedOverWhatCanHold) {
  for (int c = 0; c < kNumConfigs; ++c)
    expect_prior_on_support({static_cast<ConfigId>(c), Variant{.grid = 5}, 20000});
  for (int c = 0; c < kNumConfigs; ++c)
    expect_prior_on_support({static_cast<ConfigId>(c), Variant{.grid = 10, .values = 100}, 5000});
}

TEST(VariantRuleDistribution, SupportsTheDocsName) {
  const auto at10 = draw_rules({ConfigId::kDistributeNine, Variant{.grid = 10}, 500});
  ASSERT_EQ(at10[0][1].size(), 1u);  // Type: Constant only
  EXPECT_EQ(std::get<0>(at10[0][1].begin()->first), RuleName::kConstant);
  const auto at5 = draw_rules({ConfigId::kCenterSingle, Variant{.grid = 5}, 3000});
  for (const auto& [key, k] : at5[0][1]) {
    if (std::get<0>(key) != RuleName::kProgression) continue;
    EXPECT_EQ(std::abs(std::get<2>(key)), 1);  // |v| = 2 needs N <= 3
  }
  EXPECT_TRUE(at5[0][1].count(
      {RuleName::kDistributeThree, RuleAttr::kType, 0}));  // 5 shapes for Distribute_5
  ASSERT_EQ(at5[0][0].size(), 1u);                         // one slot: Number/Position Constant
}

}  // namespace
}  // namespace rave::engine
