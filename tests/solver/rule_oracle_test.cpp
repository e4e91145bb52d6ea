// Each rule's hypothesis check against a dumb direct definition, enumerated over small domains
// (Gecode's habit: brute-force oracles on small domains). The check under test is "the hypothesis
// fits the 8 context panels and accepts the 9th"; the oracles state each rule on the final levels
// with the layout's *original* ranges and the narrowed ranges copied from the table of
// docs/rules.md#sampling-and-pruning, not through the solver's formulas.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <functional>
#include <utility>
#include <vector>

#include "solver/abduction/fits.hpp"

namespace rave::solver {
namespace {

using engine::ConfigId;
using engine::Range;
using engine::RuleAttr;
using engine::RuleName;
using Triple = std::array<int, 3>;
using Nine = std::array<int, 9>;

int hypothesis_index(const std::vector<Hypothesis>& list, RuleName name, RuleAttr attr, int value) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].rule.name == name && list[i].rule.attr == attr && list[i].rule.value == value)
      return static_cast<int>(i);
  ADD_FAILURE() << "hypothesis not valid in this layout";
  return 0;
}

// The view of a panel holding `entities` (slot, Type/Size/Color/Angle levels), packed as
// PanelView documents it.
PanelView view_of(const std::vector<std::pair<int, std::array<int, 4>>>& entities) {
  PanelView p;
  p.count = static_cast<int>(entities.size());
  for (int a = 0; a < 4; ++a) p.common[a] = static_cast<std::int8_t>(entities[0].second[a]);
  for (std::size_t j = 0; j < entities.size(); ++j) {
    const auto& [slot, levels] = entities[j];
    p.mask = static_cast<std::uint16_t>(p.mask | (1u << slot));
    for (int a = 0; a < 4; ++a) {
      p.by_slot[a] |= static_cast<PackedLevels>(levels[a] + 1) << (4 * slot);
      if (levels[a] != p.common[a]) p.common[a] = -1;
    }
  }
  return p;
}

// One entity on slot 0 with `level` in `attr`; other attributes fixed and valid.
PanelView single_entity(int attr, int level) {
  std::array<int, 4> levels{1, 0, 0, 0};
  levels[attr] = level;
  return view_of({{0, levels}});
}

// One entity per slot of `mask`, in slot order, with Size levels `sizes` (bit j: entity j) and the
// other levels fixed and valid.
PanelView on_slots(unsigned mask, unsigned sizes = 0) {
  std::vector<std::pair<int, std::array<int, 4>>> entities;
  for (int s = 0; s < 9; ++s)
    if ((mask >> s) & 1u)
      entities.push_back({s, {1, static_cast<int>((sizes >> entities.size()) & 1u), 0, 0}});
  return view_of(entities);
}

struct Checker {
  const LayoutModel& model;
  ComponentView view;

  bool values_accept(int attr, int h, const Nine& x) {
    for (int i = 0; i < 9; ++i) view.panels[i] = single_entity(attr, x[i]);
    std::array<ValueFit, 8> fits;
    const int n = fit_values(model, attr, view, HypothesisMask{1} << h, fits.data());
    return n == 1 && fits[0].predicted == x[8];
  }
  bool group0_accepts_masks(int h, const Nine& masks) {
    for (int i = 0; i < 9; ++i) view.panels[i] = on_slots(static_cast<unsigned>(masks[i]));
    std::array<Group0Fit, 32> fits;
    const int n = fit_group0(model, view, HypothesisMask{1} << h, fits.data());
    double log_lik = 0;
    return n == 1 && group0_accepts(fits[0], model, view.panels[8], log_lik);
  }
};

Nine rows(const Triple& a, const Triple& b, const Triple& c) {
  return {a[0], a[1], a[2], b[0], b[1], b[2], c[0], c[1], c[2]};
}

std::vector<Triple> all_triples(const std::vector<int>& domain) {
  std::vector<Triple> out;
  for (int a : domain)
    for (int b : domain)
      for (int c : domain) out.push_back({a, b, c});
  return out;
}

std::vector<int> levels(Range r) {
  std::vector<int> out;
  for (int v = r.min; v <= r.max; ++v) out.push_back(v);
  return out;
}

// Row-separable rules: every triple in each row position (or only in row `only_row`), the other
// rows a fixed valid triple (the first one `base_ok` accepts).
void check_separable(const std::vector<int>& domain, const std::function<bool(const Nine&)>& solver,
                     const std::function<bool(const Triple&)>& row_ok, const char* what,
                     int only_row = -1, const std::function<bool(const Triple&)>& base_ok = {}) {
  const auto triples = all_triples(domain);
  const auto valid = std::find_if(triples.begin(), triples.end(), [&](const Triple& t) {
    return row_ok(t) && (!base_ok || base_ok(t));
  });
  ASSERT_NE(valid, triples.end()) << what;
  int accepted = 0;
  for (int r = 0; r < 3; ++r)
    for (const Triple& t : triples) {
      if (only_row >= 0 && r != only_row) continue;
      std::array<Triple, 3> rs{*valid, *valid, *valid};
      rs[r] = t;
      const bool expected = row_ok(t);
      ASSERT_EQ(solver(rows(rs[0], rs[1], rs[2])), expected)
          << what << " row " << r << " = " << t[0] << " " << t[1] << " " << t[2];
      accepted += expected;
    }
  EXPECT_GT(accepted, 0) << what;
}

// Distribute_Three: row 1 over all triples; row 2 over all triples (`full`) or over the two
// rotations and near misses; row 3 the oracle's completion and near misses. `row1_ok` adds the
// rule's range (and, for slot sets, count) conditions to "three distinct values".
void check_latin(const std::vector<int>& domain, const std::function<bool(const Nine&)>& solver,
                 const std::function<bool(const Triple&)>& row1_ok, bool full, const char* what) {
  const auto triples = all_triples(domain);
  auto next = [&](int v) {
    return domain[(std::find(domain.begin(), domain.end(), v) - domain.begin() + 1) %
                  domain.size()];
  };
  int accepted = 0;
  for (const Triple& r1 : triples) {
    const bool distinct = r1[0] != r1[1] && r1[0] != r1[2] && r1[1] != r1[2] && row1_ok(r1);
    const Triple rot1{r1[1], r1[2], r1[0]}, rot2{r1[2], r1[0], r1[1]};
    std::vector<Triple> seconds =
        full ? triples
             : std::vector<Triple>{
                   rot1, rot2, r1, {r1[1], r1[0], r1[2]}, {next(rot1[0]), rot1[1], rot1[2]}};
    for (const Triple& r2 : seconds) {
      const bool second = distinct && (r2 == rot1 || r2 == rot2);
      const Triple third = r2 == rot1 ? rot2 : rot1;
      for (int miss = 0; miss < 3; ++miss) {  // 0: the completion, 1: col3 changed, 2: col1 changed
        Triple r3 = third;
        if (miss == 1) r3[2] = next(r3[2]);
        if (miss == 2) r3[0] = next(r3[0]);
        const bool expected = second && miss == 0;
        ASSERT_EQ(solver(rows(r1, r2, r3)), expected) << what;
        accepted += expected;
      }
    }
  }
  EXPECT_GT(accepted, 0) << what;
}

TEST(RuleOracle, EntityProgressionIsStepWithinTheOriginalRange) {
  const LayoutModel& m = layout_model(ConfigId::kCenterSingle, 0);
  Checker c{m, {}};
  for (int attr : {kType, kSize, kColor})
    for (int v : {-2, -1, 1, 2}) {
      const auto rule_attr = static_cast<RuleAttr>(static_cast<int>(RuleAttr::kType) + attr);
      const int h = hypothesis_index(m.entity[attr], RuleName::kProgression, rule_attr, v);
      const Range r = m.ranges[attr];
      check_separable(
          levels(r), [&](const Nine& x) { return c.values_accept(attr, h, x); },
          [&](const Triple& t) {
            return r.contains(t[0]) && r.contains(t[2]) && t[1] - t[0] == v && t[2] - t[1] == v;
          },
          "Progression");
    }
}

TEST(RuleOracle, SizeArithmeticAddsOneBasedLevels) {
  for (ConfigId id : {ConfigId::kCenterSingle, ConfigId::kOutInGrid}) {
    const int component = id == ConfigId::kOutInGrid ? 1 : 0;  // In_Distribute_Four: Size [2, 5]
    const LayoutModel& m = layout_model(id, component);
    Checker c{m, {}};
    for (int sign : {1, -1}) {
      const int h = hypothesis_index(m.entity[kSize], RuleName::kArithmetic, RuleAttr::kSize, sign);
      const Range r = m.ranges[kSize];
      check_separable(
          levels({0, 5}), [&](const Nine& x) { return c.values_accept(kSize, h, x); },
          [&](const Triple& t) {
            return r.contains(t[0]) && r.contains(t[1]) && r.contains(t[2]) &&
                   t[2] + 1 == (sign > 0 ? (t[0] + 1) + (t[1] + 1) : (t[0] + 1) - (t[1] + 1));
          },
          "Size Arithmetic");
    }
  }
}

// Color Arithmetic: raw levels, and the guard couples rows 1 and 2, so those two rows are
// enumerated jointly over every triple whose levels add or subtract correctly, plus near misses.
TEST(RuleOracle, ColorArithmeticAddsRawLevelsWithTheRowTwoGuard) {
  const LayoutModel& m = layout_model(ConfigId::kCenterSingle, 0);
  Checker c{m, {}};
  for (int sign : {1, -1}) {
    const int h = hypothesis_index(m.entity[kColor], RuleName::kArithmetic, RuleAttr::kColor, sign);
    auto row_ok = [&](const Triple& t) {
      return t[0] >= 0 && t[0] <= 9 && t[1] >= 0 && t[1] <= 9 && t[2] >= 0 && t[2] <= 9 &&
             t[2] == (sign > 0 ? t[0] + t[1] : t[0] - t[1]);
    };
    std::vector<Triple> rows12;
    for (const Triple& t : all_triples(levels({0, 9})))
      if (row_ok(t) || (row_ok({t[0], t[1], t[2] + 1}) && t[2] + 1 <= 9)) rows12.push_back(t);
    const Triple row3{5, 2, sign > 0 ? 7 : 3};
    int accepted = 0;
    for (const Triple& r1 : rows12)
      for (const Triple& r2 : rows12) {
        // docs/rules.md#type-size-and-color-rules: after a row-1 col2 of 0, row 2 neither adds 0
        // nor starts at 9 (+) / 0 (-).
        const bool guard = r1[1] != 0 || (r2[1] != 0 && r2[0] != (sign > 0 ? 9 : 0));
        const bool expected = row_ok(r1) && row_ok(r2) && guard;
        ASSERT_EQ(c.values_accept(kColor, h, rows(r1, r2, row3)), expected)
            << sign << ": " << r1[0] << r1[1] << r1[2] << " " << r2[0] << r2[1] << r2[2];
        accepted += expected;
      }
    EXPECT_GT(accepted, 1000);
    check_separable(
        levels({0, 9}), [&](const Nine& x) { return c.values_accept(kColor, h, x); }, row_ok,
        "Color Arithmetic, row 3", /*only_row=*/2, [](const Triple& t) { return t[1] != 0; });
  }
}

TEST(RuleOracle, EntityDistributeThreeIsALatinSquare) {
  const LayoutModel& m = layout_model(ConfigId::kCenterSingle, 0);
  Checker c{m, {}};
  for (int attr : {kType, kSize}) {
    const auto rule_attr = static_cast<RuleAttr>(static_cast<int>(RuleAttr::kType) + attr);
    const int h = hypothesis_index(m.entity[attr], RuleName::kDistributeThree, rule_attr, 0);
    const Range r = m.ranges[attr];
    check_latin(
        levels({0, 5}), [&](const Nine& x) { return c.values_accept(attr, h, x); },
        [&](const Triple& t) { return r.contains(t[0]) && r.contains(t[1]) && r.contains(t[2]); },
        /*full=*/true, "Distribute_Three");
  }
}

// Group 0 on Distribute_Four (slot sets are 4-bit masks; narrowed Number ranges from
// docs/rules.md#sampling-and-pruning).
TEST(RuleOracle, PositionRulesOnDistributeFour) {
  const LayoutModel& m = layout_model(ConfigId::kDistributeFour, 0);
  Checker c{m, {}};
  std::vector<int> masks;
  for (int s = 1; s < 16; ++s) masks.push_back(s);
  auto shift = [](int mask, int v) {
    int out = 0;
    for (int s = 0; s < 4; ++s)
      if ((mask >> s) & 1) out |= 1 << (((s + v) % 4 + 4) % 4);
    return out;
  };
  auto count = [](int mask) { return std::popcount(static_cast<unsigned>(mask)); };
  auto subset = [](int a, int b) { return (a & ~b) == 0; };
  const int constant =
      hypothesis_index(m.group0, RuleName::kConstant, RuleAttr::kNumberPosition, 0);
  check_separable(
      masks, [&](const Nine& x) { return c.group0_accepts_masks(constant, x); },
      [&](const Triple& t) { return t[0] == t[1] && t[1] == t[2]; }, "Constant");
  for (int v : {-1, 1}) {
    const int h = hypothesis_index(m.group0, RuleName::kProgression, RuleAttr::kPosition, v);
    check_separable(
        masks, [&](const Nine& x) { return c.group0_accepts_masks(h, x); },
        [&](const Triple& t) {
          return count(t[0]) <= 2 && t[1] == shift(t[0], v) && t[2] == shift(t[1], v);
        },
        "Progression Position");
  }
  const int plus = hypothesis_index(m.group0, RuleName::kArithmetic, RuleAttr::kPosition, 1);
  check_separable(
      masks, [&](const Nine& x) { return c.group0_accepts_masks(plus, x); },
      [&](const Triple& t) {
        return count(t[0]) <= 3 && count(t[1]) <= 3 && !subset(t[1], t[0]) && t[2] == (t[0] | t[1]);
      },
      "Arithmetic Position +");
  const int minus = hypothesis_index(m.group0, RuleName::kArithmetic, RuleAttr::kPosition, -1);
  check_separable(
      masks, [&](const Nine& x) { return c.group0_accepts_masks(minus, x); },
      [&](const Triple& t) {
        return count(t[0]) >= 2 && count(t[0]) <= 3 && count(t[1]) >= 2 && count(t[1]) <= 3 &&
               !subset(t[0], t[1]) && t[2] == (t[0] & ~t[1]);
      },
      "Arithmetic Position -");
  // Distribute_Three Position: three distinct sets of one count (kept in all nine panels,
  // docs/rules.md#number-and-position-rules), col1's level in [0, 2].
  const int latin = hypothesis_index(m.group0, RuleName::kDistributeThree, RuleAttr::kPosition, 0);
  check_latin(
      masks, [&](const Nine& x) { return c.group0_accepts_masks(latin, x); },
      [&](const Triple& t) {
        return count(t[0]) <= 3 && count(t[1]) == count(t[0]) && count(t[2]) == count(t[0]);
      },
      /*full=*/false, "Distribute_Three Position");
}

// Number rules on Distribute_Nine: counts 1..9 (slot sets: the first `count` slots).
TEST(RuleOracle, NumberRulesOnDistributeNine) {
  const LayoutModel& m = layout_model(ConfigId::kDistributeNine, 0);
  Checker c{m, {}};
  auto masks_of = [](const Nine& counts) {
    Nine masks;
    for (int i = 0; i < 9; ++i) masks[i] = (1 << counts[i]) - 1;
    return masks;
  };
  const std::vector<int> counts{1, 2, 3, 4, 5, 6, 7, 8, 9};
  // docs/rules.md#sampling-and-pruning table: Progression Number -2 [4,8], -1 [2,8], +1 [0,6], +2
  // [0,4] (levels of col1).
  const std::array<std::pair<int, Range>, 4> progression{
      {{-2, {4, 8}}, {-1, {2, 8}}, {1, {0, 6}}, {2, {0, 4}}}};
  for (const auto& [step, range] : progression) {
    const int v = step;  // captured below (clang-tidy 14 cannot capture structured bindings)
    const Range col1 = range;
    const int h = hypothesis_index(m.group0, RuleName::kProgression, RuleAttr::kNumber, v);
    check_separable(
        counts, [&](const Nine& x) { return c.group0_accepts_masks(h, masks_of(x)); },
        [&](const Triple& t) {
          return col1.contains(t[0] - 1) && t[1] - t[0] == v && t[2] - t[1] == v;
        },
        "Progression Number");
  }
  for (int sign : {1, -1}) {
    const int h = hypothesis_index(m.group0, RuleName::kArithmetic, RuleAttr::kNumber, sign);
    check_separable(
        counts, [&](const Nine& x) { return c.group0_accepts_masks(h, masks_of(x)); },
        [&](const Triple& t) {
          const int col3 = sign > 0 ? t[0] + t[1] : t[0] - t[1];
          return t[2] == col3 && col3 >= 1 && col3 <= 9;
        },
        "Arithmetic Number");
  }
  const int latin = hypothesis_index(m.group0, RuleName::kDistributeThree, RuleAttr::kNumber, 0);
  check_latin(
      counts, [&](const Nine& x) { return c.group0_accepts_masks(latin, masks_of(x)); },
      [&](const Triple&) { return true; }, /*full=*/true, "Distribute_Three Number");
}

// Constant attributes and Angle under Progression Position: the 9th panel must hold each entity of
// row 3's col2 on its slot + v. Enumerated over every slot set of Distribute_Four and two levels
// per entity on both panels, against that per-entity definition.
TEST(RuleOracle, ShiftCarryCopiesEachEntityToItsMovedSlot) {
  ComponentView view;
  for (int v : {-1, 1})
    for (unsigned mask = 1; mask < 16; ++mask) {
      const unsigned moved = shift_mask(static_cast<std::uint16_t>(mask), v, 4);
      for (unsigned from_levels = 0; from_levels < 16; ++from_levels)
        for (unsigned to_levels = 0; to_levels < 16; ++to_levels) {
          const PanelView from = on_slots(mask, from_levels), to = on_slots(moved, to_levels);
          view.panels[7] = from;
          std::array<int, 4> from_at{-1, -1, -1, -1}, to_at{-1, -1, -1, -1};  // Size by slot
          for (unsigned s = 0, j = 0; s < 4; ++s)
            if ((mask >> s) & 1u) from_at[s] = static_cast<int>((from_levels >> j++) & 1u);
          for (unsigned s = 0, j = 0; s < 4; ++s)
            if ((moved >> s) & 1u) to_at[s] = static_cast<int>((to_levels >> j++) & 1u);
          bool expected = true;
          for (int s = 0; s < 4; ++s)
            if ((mask >> s) & 1u) expected = expected && to_at[(s + v + 4) % 4] == from_at[s];
          ASSERT_EQ(
              carry_accepts(CarryKey{Carry::kShift, v, false}, CarryFit{}, kSize, 4, view, to),
              expected);
          // Same entities on the unshifted slots: a copy only when the set is shift-invariant.
          const bool invariant = moved == mask;
          if (!invariant) {
            EXPECT_FALSE(
                carry_accepts(CarryKey{Carry::kShift, v, false}, CarryFit{}, kSize, 4, view, from));
          }
        }
    }
}

}  // namespace
}  // namespace rave::solver
