// sample_matrix against the independent rule checker (rule_checker_support.cpp), plus determinism
// and the distributions of docs/rules.md#the-first-panel, docs/rules.md#rows that the checker
// cannot see (uniform draws).
#include "engine/rules/matrix.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>

#include "engine/rules/rule_table.hpp"
#include "tests/engine/support/rule_checker_support.hpp"

namespace rave::engine {
namespace {

using N = RuleName;
using A = RuleAttr;

void expect_obeys_rules(const Matrix& m, const std::string& context) {
  const auto problems = testing::check_matrix_rules(m.config, m.rules, m.panels);
  ASSERT_TRUE(problems.empty()) << context << ": " << problems.size()
                                << " violations, first: " << problems.front();
}

std::string describe(const Rule& r) {
  return std::string(rule_name_text(r.name)) + " " + std::string(rule_attr_text(r.attr)) + " " +
         std::to_string(r.value);
}

// 5-sigma binomial bound for `observed` successes out of `n` at probability p.
void expect_binomial(double observed, double n, double p, const std::string& what) {
  EXPECT_NEAR(observed, n * p, 5 * std::sqrt(n * p * (1 - p)) + 1e-9) << what;
}

TEST(Matrix, EveryConfigurationObeysItsRules) {
  for (const Configuration& config : all_configurations()) {
    for (std::uint64_t k = 0; k < 2000; ++k) {
      Rng rng = Rng::for_problem(2024, config_index(config.id), k);
      const Matrix m = sample_matrix(config.id, rng);
      ASSERT_EQ(m.config, config.id);
      ASSERT_EQ(m.rules.size(), config.components.size());
      ASSERT_EQ(m.narrowed.size(), config.components.size());
      ASSERT_GE(m.rule_tries, 1);
      expect_obeys_rules(m, std::string(config.folder) + " k=" + std::to_string(k));
    }
  }
}

// Every valid rule of every group on every component, forced, with the other rules drawn from
// the accepted distribution: rare combinations (Arithmetic Position - on 2x2, D3 Position on O-IG,
// the Color guard, ...) are each exercised a few hundred times under both uniformities.
TEST(Matrix, EveryValidRuleHoldsWhenForced) {
  Rng rng(31337);
  int wraps = 0;
  for (const Configuration& config : all_configurations()) {
    for (std::size_t c = 0; c < config.components.size(); ++c) {
      const LayoutSpec& layout = config.components[c].layout;
      for (int g = 0; g < kNumRuleGroups; ++g) {
        for (const RuleRow& row : rule_rows(g)) {
          std::vector<int> values(row.params.begin(), row.params.end());
          if (values.empty()) values.push_back(0);
          for (int v : values) {
            const Rule forced{.name = row.name, .attr = row.attr, .value = v, .value_known = true};
            for (int i = 0; i < 150; ++i) {
              std::vector<LayoutConstraints> narrowed;
              int tries = 0;
              auto rules = sample_rules(config, rng, narrowed, tries);
              rules[c].rules[static_cast<std::size_t>(g)] = forced;
              if (!prune(config, rules)) break;  // invalid on this layout (docs/rules.md#narrowing)
              const Matrix m = sample_matrix(config.id, rules, rng);
              expect_obeys_rules(m, std::string(config.folder) + " forced " + describe(forced));
              if (forced.name == N::kProgression && forced.attr == A::kPosition)
                for (const Panel& p : m.panels)
                  for (const Entity& e : p.components[c].entities)
                    wraps +=
                        (v > 0 ? e.slot < v : e.slot >= static_cast<int>(layout.slots.size()) + v)
                            ? 1
                            : 0;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(wraps, 0)
      << "Progression Position never wrapped around: the checker's modulo is untested";
}

void expect_same(const Matrix& a, const Matrix& b) {
  EXPECT_EQ(a.config, b.config);
  EXPECT_EQ(a.rules, b.rules);
  EXPECT_EQ(a.narrowed, b.narrowed);
  EXPECT_EQ(a.panels, b.panels);
  EXPECT_EQ(a.rule_tries, b.rule_tries);
}

TEST(Matrix, SameSeedGivesTheSameMatrix) {
  for (const Configuration& config : all_configurations())
    for (std::uint64_t k = 0; k < 20; ++k) {
      Rng a = Rng::for_problem(99, config_index(config.id), k);
      Rng b = Rng::for_problem(99, config_index(config.id), k);
      expect_same(sample_matrix(config.id, a), sample_matrix(config.id, b));
      EXPECT_EQ(a.next(), b.next()) << "the streams were consumed differently";
    }
  Rng x = Rng::for_problem(99, 2, 0), y = Rng::for_problem(99, 2, 1);
  EXPECT_NE(sample_matrix(ConfigId::kDistributeNine, x).panels,
            sample_matrix(ConfigId::kDistributeNine, y).panels);
}

TEST(Matrix, RulesThatDoNotFitAreACallerBug) {
  const Rule constant_np{
      .name = N::kConstant, .attr = A::kNumberPosition, .value = 0, .value_known = true};
  RuleGroup group{{constant_np,
                   Rule{.name = N::kConstant, .attr = A::kType, .value = 0, .value_known = true},
                   Rule{.name = N::kConstant, .attr = A::kSize, .value = 0, .value_known = true},
                   Rule{.name = N::kConstant, .attr = A::kColor, .value = 0, .value_known = true}}};
  Rng rng(5);
  EXPECT_NO_THROW(sample_matrix(ConfigId::kCenterSingle, {group}, rng));
  EXPECT_THROW(sample_matrix(ConfigId::kLeftRight, {group}, rng), std::logic_error);
  group.rules[0] =
      Rule{.name = N::kProgression, .attr = A::kNumber, .value = 1, .value_known = true};
  EXPECT_THROW(sample_matrix(ConfigId::kCenterSingle, {group}, rng), std::logic_error);
}

// docs/rules.md#the-first-panel: Number uniform over the narrowed range, Uniformity uniform over
// 0..3, a single slot uniform over the slots. Row 1 col 1 keeps the first panel's Number and slots
// (only D3 and the resampling of rows 2-3 redraw them, docs/rules.md#rows).
TEST(Matrix, FirstPanelDrawsAreUniform) {
  for (ConfigId id : {ConfigId::kDistributeFour, ConfigId::kDistributeNine, ConfigId::kOutInGrid}) {
    const std::size_t c = id == ConfigId::kOutInGrid ? 1 : 0;
    const int slots = static_cast<int>(configuration(id).components[c].layout.slots.size());
    std::map<std::pair<int, int>, int> ranges;          // narrowed (min, max) -> count
    std::map<std::tuple<int, int, int>, int> by_level;  // (min, max, level) -> count
    std::array<int, 4> uniformity{};
    std::vector<int> single_slot(static_cast<std::size_t>(slots), 0);
    int singles = 0;
    const int n = 12000;
    for (std::uint64_t k = 0; k < static_cast<std::uint64_t>(n); ++k) {
      Rng rng = Rng::for_problem(7, config_index(id), k);
      const Matrix m = sample_matrix(id, rng);
      const ComponentPanel& first = m.panels[0].components[c];
      const Range range = m.narrowed[c].number;
      ++ranges[{range.min, range.max}];
      ++by_level[{range.min, range.max, first.number_level()}];
      ++uniformity[static_cast<std::size_t>(first.uniformity)];
      if (first.entities.size() == 1) {
        ++single_slot[static_cast<std::size_t>(first.entities[0].slot)];
        ++singles;
      }
    }
    const std::string name(configuration(id).folder);
    for (const auto& [range, total] : ranges)
      for (int level = range.first; level <= range.second; ++level) {
        const auto it = by_level.find({range.first, range.second, level});
        expect_binomial(it == by_level.end() ? 0 : it->second, total,
                        1.0 / (range.second - range.first + 1),
                        name + " Number level " + std::to_string(level));
      }
    for (int u = 0; u < 4; ++u)
      expect_binomial(uniformity[static_cast<std::size_t>(u)], n, 0.25, name + " Uniformity");
    for (int s = 0; s < slots; ++s)
      expect_binomial(single_slot[static_cast<std::size_t>(s)], singles, 1.0 / slots,
                      name + " slot " + std::to_string(s));
  }
}

RuleGroup constant_group() {
  return RuleGroup{
      {Rule{.name = N::kConstant, .attr = A::kNumberPosition, .value = 0, .value_known = true},
       Rule{.name = N::kConstant, .attr = A::kType, .value = 0, .value_known = true},
       Rule{.name = N::kConstant, .attr = A::kSize, .value = 0, .value_known = true},
       Rule{.name = N::kConstant, .attr = A::kColor, .value = 0, .value_known = true}}};
}

// docs/rules.md#number-and-position-rules: Arithmetic Number + draws col2's level uniformly in
// [orig min, orig max - L1 - 1] with orig max recovered as narrowed min + narrowed max + 1 (3x3:
// [0, 7 - L1]).
TEST(Matrix, ArithmeticNumberCol2IsUniformInItsRecoveredRange) {
  RuleGroup group = constant_group();
  group.rules[0] =
      Rule{.name = N::kArithmetic, .attr = A::kNumber, .value = 1, .value_known = true};
  Rng rng(11);
  std::map<std::pair<int, int>, int> hits;  // (L1, L2) -> count
  std::map<int, int> rows;
  for (int i = 0; i < 6000; ++i) {
    const Matrix m = sample_matrix(ConfigId::kDistributeNine, {group}, rng);
    for (std::size_t r = 0; r < 3; ++r) {
      const int l1 = m.panels[3 * r].components[0].number_level();
      ++rows[l1];
      ++hits[{l1, m.panels[3 * r + 1].components[0].number_level()}];
    }
  }
  for (const auto& [l1, total] : rows)
    for (int l2 = 0; l2 <= 7 - l1; ++l2)
      expect_binomial(hits[{l1, l2}], total, 1.0 / (8 - l1),
                      "L1=" + std::to_string(l1) + " L2=" + std::to_string(l2));
  for (const auto& [key, k] : hits) EXPECT_LE(key.first + key.second, 7) << "count beyond 9 slots";
}

// docs/rules.md#type-size-and-color-rules: Arithmetic Size - draws col2 in [orig min, L1 - orig min
// - 1], orig min recovered as (narrowed min - 1) div 2 (default Size: [0, L1 - 1]).
TEST(Matrix, ArithmeticSizeCol2IsUniformInItsRecoveredRange) {
  RuleGroup group = constant_group();
  group.rules[2] = Rule{.name = N::kArithmetic, .attr = A::kSize, .value = -1, .value_known = true};
  Rng rng(12);
  std::map<std::pair<int, int>, int> hits;
  std::map<int, int> rows;
  for (int i = 0; i < 6000; ++i) {
    const Matrix m = sample_matrix(ConfigId::kCenterSingle, {group}, rng);
    for (std::size_t r = 0; r < 3; ++r) {
      const int l1 = m.panels[3 * r].components[0].entities[0].size;
      ++rows[l1];
      ++hits[{l1, m.panels[3 * r + 1].components[0].entities[0].size}];
    }
  }
  EXPECT_FALSE(rows.count(0)) << "narrowed Size range for Arithmetic - starts at 1";
  for (const auto& [l1, total] : rows)
    for (int l2 = 0; l2 <= l1 - 1; ++l2)
      expect_binomial(hits[{l1, l2}], total, 1.0 / l1,
                      "L1=" + std::to_string(l1) + " L2=" + std::to_string(l2));
}

// docs/rules.md#number-and-position-rules/6.3: Distribute_Three picks one of the two row orders
// with probability 1/2.
TEST(Matrix, DistributeThreeRowOrderIsAFairCoin) {
  RuleGroup group = constant_group();
  group.rules[1] =
      Rule{.name = N::kDistributeThree, .attr = A::kType, .value = 0, .value_known = true};
  Rng rng(13);
  int first_order = 0;
  const int n = 4000;
  for (int i = 0; i < n; ++i) {
    const Matrix m = sample_matrix(ConfigId::kCenterSingle, {group}, rng);
    auto type = [&](std::size_t p) { return m.panels[p].components[0].entities[0].type; };
    first_order += type(3) == type(1) ? 1 : 0;  // row 2 starts with row 1's second value
  }
  expect_binomial(first_order, n, 0.5, "D3 row order");
}

// docs/rules.md#type-size-and-color-rules: the Color guard covers rows 1-2 only. Row 1 col2 = 0
// happens, then row 2 col2 is never 0, but row 3 col2 may be 0 again.
TEST(Matrix, ArithmeticColorGuardCoversRowsOneAndTwoOnly) {
  for (int sign : {1, -1}) {
    RuleGroup group = constant_group();
    group.rules[3] =
        Rule{.name = N::kArithmetic, .attr = A::kColor, .value = sign, .value_known = true};
    Rng rng(14 + static_cast<std::uint64_t>(sign + 1));
    int alarms = 0, row3_zero_after_alarm = 0;
    for (int i = 0; i < 20000; ++i) {
      const Matrix m = sample_matrix(ConfigId::kCenterSingle, {group}, rng);
      auto color = [&](std::size_t p) { return m.panels[p].components[0].entities[0].color; };
      if (color(1) != 0) continue;
      ++alarms;
      EXPECT_NE(color(4), 0) << "guard failed, sign " << sign;
      row3_zero_after_alarm += color(7) == 0 ? 1 : 0;
    }
    EXPECT_GT(alarms, 100) << sign;
    EXPECT_GT(row3_zero_after_alarm, 0) << "row 3 must not be guarded, sign " << sign;
  }
}

}  // namespace
}  // namespace rave::engine
