// Direct rule draws (engine/rules/rule_choices.hpp, MatrixModel::direct_rules) against the
// original's rejection sampling (docs/rules.md#sampling-and-pruning):
// - exactly: for every configuration, grid, value range and regime, every component's whole rule
//   group (the four rules) has the probability the rejection sampler accepts it with, enumerated
//   over the whole table (prior of each (row, parameter), kept iff narrow() succeeds for the group)
//   and compared with the product of the direct weights;
// - end to end: sample_rules' draws against those exact probabilities by a chi-square test (fixed
//   seeds; the bound is the 1 - 1e-5 quantile), which deliberately skewed tables fail (a plausible
//   bug, rows first then a fitting parameter, and one weight off by one), and against the rejection
//   sampler's own draws, held-out pairs included (a two-sample chi-square);
// - the scope: the 3 x 3 originals (with or without confounders) keep rejection sampling, whose
//   draws their bytes depend on; every other variant draws directly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <string>

#include "engine/rules/matrix.hpp"
#include "engine/rules/variant_rules.hpp"

namespace rave::engine {
namespace {

// One component's whole rule group as a map key: (name, attr, value) of each of the four rules.
using Key = std::array<int, 3 * kNumRuleGroups>;
using Distribution = std::map<Key, double>;

Key key_of(const RuleGroup& group) {
  Key key{};
  for (std::size_t g = 0; g < kNumRuleGroups; ++g) {
    key[3 * g] = static_cast<int>(group.rules[g].name);
    key[3 * g + 1] = static_cast<int>(group.rules[g].attr);
    key[3 * g + 2] = group.rules[g].value;
  }
  return key;
}

std::vector<Rule> table_rules(std::span<const RuleRow> rows) {
  std::vector<Rule> out;
  for (const RuleRow& row : rows) {
    if (row.params.empty()) out.push_back({row.name, row.attr, 0});
    for (int v : row.params) out.push_back({row.name, row.attr, v});
  }
  return out;
}

// The rejection sampler's accepted distribution of component `c`'s groups, exactly: every group of
// the table with its prior (VariantRules::prior, rows then parameters), kept iff the whole group
// narrows the layout's ranges (narrow(), the check prune() makes), normalized.
Distribution rejection_distribution(const MatrixModel& model, std::size_t c) {
  const LayoutSpec& layout = model.config->components[c].layout;
  std::array<std::vector<Rule>, kNumRuleGroups> rules;
  for (std::size_t g = 0; g < kNumRuleGroups; ++g) rules[g] = table_rules(model.rules->rows[c][g]);
  Distribution out;
  double total = 0;
  RuleGroup group;
  std::function<void(std::size_t, double)> visit = [&](std::size_t g, double p) {
    if (g == kNumRuleGroups) {
      if (!narrow(layout, original_constraints(layout), group, model.grid)) return;
      out[key_of(group)] += p;
      total += p;
      return;
    }
    for (const Rule& r : rules[g]) {
      group.rules[g] = r;
      visit(g + 1, p * model.rules->prior(static_cast<int>(c), static_cast<int>(g), r));
    }
  };
  visit(0, 1.0);
  for (auto& [key, p] : out) p /= total;
  return out;
}

double direct_probability(const ComponentChoices& choices, const Key& key) {
  double p = 1;
  for (std::size_t g = 0; g < kNumRuleGroups; ++g)
    p *= choices[g].probability(Rule{static_cast<RuleName>(key[3 * g]),
                                     static_cast<RuleAttr>(key[3 * g + 1]), key[3 * g + 2]});
  return p;
}

struct Case {
  ConfigId id;
  Variant variant;
  Split split = Split::kTrain;
};

std::string name_of(const Case& c) {
  return std::string(configuration(c.id).folder) + " grid " + std::to_string(c.variant.grid) +
         " values " + std::to_string(c.variant.values) + " " +
         std::string(regime_name(c.variant.regime)) + " " + hold_out_text(c.variant) + " " +
         std::string(split_name(c.split));
}

MatrixModel model_of(const Case& c) {
  const bool regime = c.variant.regime != Regime::kNeutral;
  return matrix_model(c.id, c.variant, regime ? std::optional(c.split) : std::nullopt);
}

std::vector<Case> all_cases() {
  std::vector<Variant> variants;
  for (int grid : {3, 4, 5, 7, 10})
    for (int values : {0, 7, 100, 1000})
      variants.push_back(Variant{.grid = grid, .values = values});
  for (Regime r : {Regime::kInterpolation, Regime::kExtrapolation})
    variants.push_back(Variant{.grid = 4, .values = 20, .regime = r});
  variants.push_back(
      Variant{.grid = 5, .regime = Regime::kHeldOutAttribute, .held_out_attr = RuleAttr::kColor});
  variants.push_back(Variant{.grid = 3,
                             .regime = Regime::kHeldOutPairs,
                             .held_out_pairs = {{RuleAttr::kSize, RuleName::kProgression}}});
  std::vector<Case> cases;
  for (const Variant& v : variants)
    for (int id = 0; id < kNumConfigs; ++id)
      for (Split split : {Split::kTrain, Split::kTest}) {
        if (split == Split::kTest && v.regime == Regime::kNeutral) continue;
        if (v.regime == Regime::kHeldOutPairs && split == Split::kTest) continue;  // required
        cases.push_back({static_cast<ConfigId>(id), v, split});
      }
  return cases;
}

TEST(DirectRuleSampling, EveryGroupHasItsRejectionProbabilityExactly) {
  int compared = 0;
  for (const Case& c : all_cases()) {
    const MatrixModel model = model_of(c);
    for (std::size_t comp = 0; comp < model.config->components.size(); ++comp) {
      const Distribution exact = rejection_distribution(model, comp);
      const ComponentChoices& choices = model.rules->choices[comp];
      if (exact.empty()) {  // nothing is ever accepted: some group has no rule that can hold
        EXPECT_TRUE(std::any_of(choices.begin(), choices.end(), [](const GroupChoices& g) {
          return g.total == 0;
        })) << name_of(c);
        continue;
      }
      double covered = 0;
      for (const auto& [key, p] : exact) {
        const double q = direct_probability(choices, key);
        ASSERT_NEAR(q, p, 1e-12) << name_of(c) << " component " << comp;
        covered += q;
        ++compared;
      }
      EXPECT_NEAR(covered, 1.0, 1e-12) << name_of(c) << ": direct mass outside what is accepted";
    }
  }
  EXPECT_GT(compared, 10000);
}

// --- chi-square against the exact distribution ---------------------------------------------------

// The 1 - 1e-5 quantile of chi-square with `df` degrees of freedom (Wilson-Hilferty).
double chi_square_bound(int df) {
  const double k = df;
  const double z = 4.2649;
  const double t = 1 - 2 / (9 * k) + z * std::sqrt(2 / (9 * k));
  return k * t * t * t;
}

// Pearson's statistic of `counts` (n draws) against `expected` probabilities, cells with fewer than
// 5 expected draws pooled into one; `df` gets the degrees of freedom.
double pearson(const std::map<Key, int>& counts, const Distribution& expected, int n, int& df) {
  double stat = 0;
  double pooled_e = 0;
  double pooled_o = 0;
  int cells = 0;
  for (const auto& [key, p] : expected) {
    const auto it = counts.find(key);
    const double o = it == counts.end() ? 0 : it->second;
    if (n * p < 5) {
      pooled_e += n * p;
      pooled_o += o;
      continue;
    }
    stat += (o - n * p) * (o - n * p) / (n * p);
    ++cells;
  }
  for (const auto& [key, o] : counts)
    if (!expected.contains(key)) pooled_o += o;  // never accepted: counts against the pool
  if (pooled_e > 0) {
    stat += (pooled_o - pooled_e) * (pooled_o - pooled_e) / pooled_e;
    ++cells;
  } else if (pooled_o > 0) {
    stat = INFINITY;
  }
  df = cells - 1;
  return stat;
}

// The draws of sample_rules under `model`, per component.
std::vector<std::map<Key, int>> draw(const MatrixModel& model, int n, std::uint64_t seed) {
  std::vector<std::map<Key, int>> counts(model.config->components.size());
  Rng rng(seed);
  std::vector<LayoutConstraints> narrowed;
  for (int i = 0; i < n; ++i) {
    int tries = 0;
    const auto groups = sample_rules(model, rng, narrowed, tries);
    for (std::size_t c = 0; c < groups.size(); ++c) ++counts[c][key_of(groups[c])];
  }
  return counts;
}

// Whether every component's draws pass the chi-square test against the exact distribution.
::testing::AssertionResult fits_exact(const MatrixModel& model, const Case& c, int n) {
  const auto counts = draw(model, n, 0xC41 + static_cast<std::uint64_t>(config_index(c.id)));
  for (std::size_t comp = 0; comp < counts.size(); ++comp) {
    int df = 0;
    const double stat = pearson(counts[comp], rejection_distribution(model_of(c), comp), n, df);
    if (df < 1 || !(stat <= chi_square_bound(df)))
      return ::testing::AssertionFailure()
             << name_of(c) << " component " << comp << ": chi2 " << stat << " on " << df
             << " df, bound " << chi_square_bound(df);
  }
  return ::testing::AssertionSuccess();
}

// Cases whose groups mix rows with parameters that fit and parameters that do not.
std::vector<Case> skewable_cases() {
  return {{ConfigId::kDistributeFour, Variant{.grid = 4, .values = 100}},
          {ConfigId::kDistributeNine, Variant{.grid = 5}},
          {ConfigId::kOutInGrid, Variant{.grid = 4, .values = 100}},
          {ConfigId::kCenterSingle, Variant{.grid = 10}}};
}

TEST(DirectRuleSampling, DrawsFitTheExactDistribution) {
  for (const Case& c : skewable_cases()) EXPECT_TRUE(fits_exact(model_of(c), c, 40000));
}

// A table whose weights pick a row among those with a fitting parameter, then a fitting parameter
// (a plausible mistake: the right support, the wrong weights).
GroupChoices rows_first(const GroupChoices& right) {
  std::map<std::pair<int, int>, int> fitting;  // (name, attr) -> fitting parameters
  for (const auto& choice : right.rules)
    ++fitting[{static_cast<int>(choice.rule.name), static_cast<int>(choice.rule.attr)}];
  int lcm = 1;
  for (const auto& [row, k] : fitting) lcm = std::lcm(lcm, k);
  GroupChoices out;
  for (WeightedRule choice : right.rules) {
    choice.weight =
        lcm / fitting[{static_cast<int>(choice.rule.name), static_cast<int>(choice.rule.attr)}];
    out.rules.push_back(choice);
    out.total += choice.weight;
  }
  return out;
}

GroupChoices first_off_by_one(const GroupChoices& right) {
  GroupChoices out = right;
  if (out.rules.size() > 1) {
    ++out.rules.front().weight;
    ++out.total;
  }
  return out;
}

using Skew = GroupChoices (*)(const GroupChoices&);

// The model of `c` drawing from its table skewed by `skew` (kept in `storage`).
MatrixModel skewed_model(const Case& c, Skew skew, VariantRules& storage) {
  MatrixModel model = model_of(c);
  storage = *model.rules;
  for (auto& component : storage.choices)
    for (auto& group : component) group = skew(group);
  model.rules = &storage;
  return model;
}

TEST(DirectRuleSampling, TheChiSquareTestFailsSkewedTables) {
  for (const Case& c : skewable_cases())
    for (Skew skew : {rows_first, first_off_by_one}) {
      VariantRules storage;
      EXPECT_FALSE(fits_exact(skewed_model(c, skew, storage), c, 40000)) << name_of(c);
    }
}

// --- two samples: direct draws against the rejection sampler's ------------------------------------

// Whether two samples of n draws each look alike (chi-square homogeneity test, cells with fewer
// than 10 draws in both together pooled).
::testing::AssertionResult alike(const std::map<Key, int>& a, const std::map<Key, int>& b) {
  std::map<Key, std::pair<double, double>> both;
  for (const auto& [key, k] : a) both[key].first = k;
  for (const auto& [key, k] : b) both[key].second = k;
  double stat = 0;
  std::pair<double, double> pool{0, 0};
  int cells = 0;
  const auto add = [&](double x, double y) {
    stat += (x - y) * (x - y) / (x + y);
    ++cells;
  };
  for (const auto& [key, xy] : both) {
    if (xy.first + xy.second < 10) {
      pool.first += xy.first;
      pool.second += xy.second;
    } else {
      add(xy.first, xy.second);
    }
  }
  if (pool.first + pool.second > 0) add(pool.first, pool.second);
  if (cells > 1 && stat <= chi_square_bound(cells - 1)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "chi2 " << stat << " on " << cells - 1 << " df";
}

TEST(DirectRuleSampling, DrawsAsTheRejectionSamplerDoes) {
  const std::vector<Case> cases{
      {ConfigId::kDistributeNine, Variant{.grid = 5}},
      {ConfigId::kDistributeFour, Variant{.grid = 4, .values = 100}},
      {ConfigId::kCenterSingle,
       Variant{.grid = 4,
               .values = 50,
               .regime = Regime::kHeldOutPairs,
               .held_out_pairs = {{RuleAttr::kSize, RuleName::kArithmetic},
                                  {RuleAttr::kColor, RuleName::kProgression}}},
       Split::kTest}};
  for (const Case& c : cases) {
    const MatrixModel direct = model_of(c);
    ASSERT_TRUE(direct.direct_rules) << name_of(c);
    MatrixModel rejection = direct;
    rejection.direct_rules = false;
    const auto a = draw(direct, 20000, 11);
    const auto b = draw(rejection, 20000, 12);
    for (std::size_t comp = 0; comp < a.size(); ++comp)
      EXPECT_TRUE(alike(a[comp], b[comp])) << name_of(c) << " component " << comp;
  }
}

TEST(DirectRuleSampling, TheTwoSampleTestFailsASkewedTable) {
  const Case c{ConfigId::kDistributeNine, Variant{.grid = 5}};
  MatrixModel rejection = model_of(c);
  rejection.direct_rules = false;
  VariantRules storage;
  EXPECT_FALSE(alike(draw(skewed_model(c, rows_first, storage), 20000, 11)[0],
                     draw(rejection, 20000, 12)[0]));
}

TEST(DirectRuleSampling, OnlyTheOriginalsKeepRejectionSampling) {
  EXPECT_FALSE(matrix_model(ConfigId::kOutInCenter).direct_rules);
  EXPECT_FALSE(matrix_model(ConfigId::kCenterSingle, Variant{.confounders = 3}).direct_rules);
  EXPECT_TRUE(matrix_model(ConfigId::kCenterSingle, Variant{.grid = 4}).direct_rules);
  EXPECT_TRUE(matrix_model(ConfigId::kCenterSingle, Variant{.values = 10}).direct_rules);
  const Variant pairs{.regime = Regime::kHeldOutPairs,
                      .held_out_pairs = {{RuleAttr::kSize, RuleName::kProgression}}};
  EXPECT_TRUE(matrix_model(ConfigId::kCenterSingle, pairs, Split::kTrain).direct_rules);
}

// One draw per accepted group where nothing is required, whatever the rejection sampler's rate.
TEST(DirectRuleSampling, OneTryPerProblemAtTenColumns) {
  const MatrixModel model = matrix_model(ConfigId::kOutInCenter, {.grid = 10});
  Rng rng(5);
  std::vector<LayoutConstraints> narrowed;
  for (int i = 0; i < 100; ++i) {
    int tries = 0;
    const auto groups = sample_rules(model, rng, narrowed, tries);
    EXPECT_EQ(tries, 1);
    EXPECT_EQ(prune(*model.config, groups, 10), narrowed);
  }
}

}  // namespace
}  // namespace rave::engine
