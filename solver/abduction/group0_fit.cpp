// Number/Position hypotheses on the context (docs/rules.md#number-and-position-rules,
// docs/solver.md#posterior, group 0). Panels are indexed row-major: row r holds panels 3r, 3r+1,
// 3r+2; panel 8 (row 3 col 3) is the candidate, so row 3 is checked on its first two panels and its
// third is predicted.
#include <array>
#include <cmath>

#include "solver/abduction/fits.hpp"
#include "solver/abduction/likelihood.hpp"
#include "solver/abduction/semantics.hpp"

namespace rave::solver {
namespace {

using engine::RuleAttr;
using engine::RuleName;

struct Context {
  const LayoutModel& model;
  const ComponentView& view;
  const Hypothesis& h;
  int n() const { return model.slots; }
  int level(int i) const { return view.panels[i].level(); }
  int count(int i) const { return view.panels[i].count; }
  std::uint16_t mask(int i) const { return view.panels[i].mask; }
};

bool fit_constant(const Context& c, Group0Fit& f) {
  for (int r = 0; r < 3; ++r) {
    const int a = 3 * r;
    if (!c.h.range.contains(c.level(a)) || c.mask(a + 1) != c.mask(a)) return false;
    if (r < 2 && c.mask(a + 2) != c.mask(a)) return false;
  }
  f.count = c.count(6);
  f.mask = c.mask(6);
  return true;
}

bool fit_progression_number(const Context& c, int v, Group0Fit& f) {
  for (int r = 0; r < 3; ++r) {
    const int a = 3 * r;
    if (!c.h.range.contains(c.level(a)) || c.level(a + 1) != c.level(a) + v) return false;
    if (r < 2 && c.level(a + 2) != c.level(a) + 2 * v) return false;
  }
  f.count = c.count(6) + 2 * v;
  return true;
}

bool fit_progression_position(const Context& c, int v, Group0Fit& f) {
  for (int r = 0; r < 3; ++r) {
    const int a = 3 * r;
    if (!c.h.range.contains(c.level(a)) || c.mask(a + 1) != shift_mask(c.mask(a), v, c.n()))
      return false;
    if (r < 2 && c.mask(a + 2) != shift_mask(c.mask(a + 1), v, c.n())) return false;
  }
  f.mask = shift_mask(c.mask(7), v, c.n());
  f.count = c.count(7);
  return true;
}

bool fit_arithmetic_number(const Context& c, int sign, Group0Fit& f) {
  for (int r = 0; r < 3; ++r) {
    const int a = 3 * r;
    const engine::Range col2 =
        arithmetic_col2_range(ArithKind::kNumber, sign, c.h.range, c.level(a));
    if (!c.h.range.contains(c.level(a)) || !col2.contains(c.level(a + 1))) return false;
    const int col3 = arithmetic_apply(ArithKind::kNumber, sign, c.level(a), c.level(a + 1));
    if (r < 2 && c.level(a + 2) != col3) return false;
    if (r == 2) f.count = col3 + 1;
  }
  return true;
}

bool fit_arithmetic_position(const Context& c, int sign, Group0Fit& f) {
  for (int r = 0; r < 3; ++r) {
    const int a = 3 * r;
    const std::uint16_t m1 = c.mask(a), m2 = c.mask(a + 1);
    if (!c.h.range.contains(c.level(a)) || !c.h.range.contains(c.level(a + 1))) return false;
    // col2 is redrawn until union adds a slot / difference removes one
    // (docs/rules.md#number-and-position-rules).
    if (sign > 0 ? (m2 & ~m1) == 0 : (m1 & ~m2) == 0) return false;
    const auto col3 = static_cast<std::uint16_t>(sign > 0 ? (m1 | m2) : (m1 & ~m2));
    if (r < 2 && c.mask(a + 2) != col3) return false;
    if (r == 2) f.mask = col3;
  }
  f.count = popcount(f.mask);
  return true;
}

bool fit_distribute_three_number(const Context& c, Group0Fit& f) {
  std::array<int, 8> levels;
  for (int i = 0; i < 8; ++i) levels[i] = c.level(i);
  for (int i = 0; i < 3; ++i)
    if (!c.h.range.contains(levels[i])) return false;
  int third = 0;
  if (!latin_rows(levels, third)) return false;
  f.count = third + 1;
  return true;
}

bool fit_distribute_three_position(const Context& c, Group0Fit& f) {
  std::array<std::uint16_t, 8> masks;
  for (int i = 0; i < 8; ++i) {
    if (c.count(i) != c.count(0)) return false;  // Number is fixed in all nine panels
    masks[i] = c.mask(i);
  }
  if (!c.h.range.contains(c.level(0)) || !latin_rows(masks, f.mask)) return false;
  f.count = c.count(0);
  return true;
}

bool fit_one(const Context& c, Group0Fit& f) {
  const engine::Rule& rule = c.h.rule;
  const bool number = rule.attr == RuleAttr::kNumber;
  switch (rule.name) {
    case RuleName::kConstant: return fit_constant(c, f);
    case RuleName::kProgression:
      return number ? fit_progression_number(c, rule.value, f)
                    : fit_progression_position(c, rule.value, f);
    case RuleName::kArithmetic:
      return number ? fit_arithmetic_number(c, rule.value, f)
                    : fit_arithmetic_position(c, rule.value, f);
    case RuleName::kDistributeThree:
      return number ? fit_distribute_three_number(c, f) : fit_distribute_three_position(c, f);
  }
  return false;
}

// Facts of the context's counts and slot sets, each a condition that the checks of some group-0
// hypotheses require; a hypothesis is checked only when its condition holds, so the ~13 hypotheses
// of a grid mostly cost one test of a precomputed flag.
struct Group0Shape {
  static constexpr int kNoStep = 1 << 20;
  std::array<std::uint16_t, 8> masks{};
  std::array<int, 8> levels{};
  bool constant_sets = false;            // every row keeps its slot set
  int number_step = kNoStep;             // the common step of the Number levels
  std::array<bool, 2> number_arith{};    // [sign > 0]: rows 1 and 2 end as Arithmetic Number
  std::array<bool, 2> position_arith{};  // [sign > 0]: rows 1 and 2 end as union / difference
  bool number_latin = false, position_latin = false;
};

Group0Shape shape_of(const ComponentView& view) {
  Group0Shape c;
  for (int i = 0; i < 8; ++i)
    c.masks[i] = view.panels[i].mask, c.levels[i] = view.panels[i].level();
  const auto& m = c.masks;
  const auto& l = c.levels;
  c.constant_sets = m[1] == m[0] && m[2] == m[0] && m[4] == m[3] && m[5] == m[3] && m[7] == m[6];
  const int d = l[1] - l[0];
  const bool steps = l[2] - l[1] == d && l[4] - l[3] == d && l[5] - l[4] == d && l[7] - l[6] == d;
  c.number_step = steps ? d : Group0Shape::kNoStep;
  for (int plus = 0; plus < 2; ++plus) {
    const int sign = plus ? 1 : -1;
    c.number_arith[plus] = l[2] == arithmetic_apply(ArithKind::kNumber, sign, l[0], l[1]) &&
                           l[5] == arithmetic_apply(ArithKind::kNumber, sign, l[3], l[4]);
    auto ends = [&](int a) { return m[a + 2] == (plus ? (m[a] | m[a + 1]) : (m[a] & ~m[a + 1])); };
    c.position_arith[plus] = ends(0) && ends(3);
  }
  int third_level = 0;
  std::uint16_t third_mask = 0;
  c.number_latin = latin_rows(l, third_level);
  c.position_latin = latin_rows(m, third_mask);
  return c;
}

// A condition the check of `rule` requires (see Group0Shape).
bool may_fit(const Group0Shape& c, const engine::Rule& rule, int slots) {
  const bool number = rule.attr == RuleAttr::kNumber;
  const bool plus = rule.value > 0;
  switch (rule.name) {
    case RuleName::kConstant: return c.constant_sets;
    case RuleName::kProgression:
      return number ? c.number_step == rule.value
                    : c.masks[1] == shift_mask(c.masks[0], rule.value, slots);
    case RuleName::kArithmetic: return number ? c.number_arith[plus] : c.position_arith[plus];
    case RuleName::kDistributeThree: return number ? c.number_latin : c.position_latin;
  }
  return false;
}

}  // namespace

int fit_group0(const LayoutModel& model, const ComponentView& view, HypothesisMask allowed,
               Group0Fit* out) {
  for (int i = 0; i < 8; ++i)
    if (view.panels[i].count == 0) return 0;
  const Group0Shape shape = shape_of(view);
  const ContextNumbers counts = context_counts(view);
  int written = 0;
  for (std::size_t i = 0; i < model.group0.size(); ++i) {
    const Hypothesis& h = model.group0[i];
    if (!((allowed >> i) & 1u) || !may_fit(shape, h.rule, model.slots)) continue;
    Group0Fit f;
    if (!fit_one(Context{model, view, h}, f)) continue;
    f.hypothesis = static_cast<int>(i);
    f.log_lik = group0_context_log_lik(h, model.slots, counts);
    f.carry = carry_of(h.rule);
    f.shift = f.carry == Carry::kShift ? h.rule.value : 0;
    f.count_only = predicts_count_only(h.rule);
    out[written++] = f;
  }
  return written;
}

}  // namespace rave::solver
