// Type/Size/Color hypotheses other than Constant on the context
// (docs/rules.md#type-size-and-color-rules). Every such rule writes one level to all entities of
// every panel, col1 included, so each panel must show a single level (value consistency,
// docs/solver.md#details-that-decide); the rules then relate the three levels of a row.
#include <cmath>

#include "solver/abduction/fits.hpp"
#include "solver/abduction/likelihood.hpp"
#include "solver/abduction/semantics.hpp"

namespace rave::solver {
namespace {

using engine::RuleName;

bool fit_progression(const std::array<int, 8>& x, const Hypothesis& h, ValueFit& f) {
  const int v = h.rule.value;
  for (int r = 0; r < 3; ++r) {
    const int a = 3 * r;
    if (!h.range.contains(x[a]) || x[a + 1] != x[a] + v) return false;
    if (r < 2 && x[a + 2] != x[a] + 2 * v) return false;
  }
  f.predicted = x[6] + 2 * v;
  return true;
}

// Arithmetic Size works on 1-based levels, Color on raw levels (docs/rules.md); Color also keeps
// rows 1 and 2 from both adding 0 (the guard): after a row-1 zero, row 2 may not draw what it
// forbids.
bool fit_arithmetic(const std::array<int, 8>& x, const Hypothesis& h, int attr, ValueFit& f) {
  const ArithKind kind = attr == kSize ? ArithKind::kSize : ArithKind::kColor;
  const int sign = h.rule.value;
  for (int r = 0; r < 3; ++r) {
    const int a = 3 * r;
    const engine::Range col2 = arithmetic_col2_range(kind, sign, h.range, x[a]);
    if (!h.range.contains(x[a]) || !col2.contains(x[a + 1])) return false;
    const int col3 = arithmetic_apply(kind, sign, x[a], x[a + 1]);
    if (r < 2 && x[a + 2] != col3) return false;
    if (r == 2) f.predicted = col3;
    const bool guarded = kind == ArithKind::kColor && r == 1 && x[1] == 0;
    if (guarded && std::isinf(guarded_color_row2_log_lik(sign, h.range, x[a], x[a + 1])))
      return false;
  }
  return true;
}

bool fit_distribute_three(const std::array<int, 8>& x, const Hypothesis& h, ValueFit& f) {
  for (int i = 0; i < 3; ++i)
    if (!h.range.contains(x[i])) return false;
  return latin_rows(x, f.predicted);
}

// Facts of the 8 context levels shared by the hypotheses of one rule name: a hypothesis is tried
// only when they allow it (each is a condition its own check also requires).
struct ContextShape {
  int step = 0;                 // the common step when every row steps alike, else kNoStep
  std::array<bool, 2> arith{};  // [sign > 0]: rows 1 and 2 end as Arithmetic of that sign computes
  bool latin = false;           // latin_rows holds
  static constexpr int kNoStep = 1 << 20;
};

ContextShape shape_of(const std::array<int, 8>& x, int attr) {
  ContextShape c;
  const int d = x[1] - x[0];
  const bool steps = x[2] - x[1] == d && x[4] - x[3] == d && x[5] - x[4] == d && x[7] - x[6] == d;
  c.step = steps ? d : ContextShape::kNoStep;
  const ArithKind kind = attr == kSize ? ArithKind::kSize : ArithKind::kColor;
  for (int plus = 0; plus < 2; ++plus) {
    const int sign = plus ? 1 : -1;
    c.arith[plus] = x[2] == arithmetic_apply(kind, sign, x[0], x[1]) &&
                    x[5] == arithmetic_apply(kind, sign, x[3], x[4]);
  }
  int third = 0;
  c.latin = latin_rows(x, third);
  return c;
}

}  // namespace

int fit_values(const LayoutModel& model, int attr, const ComponentView& view,
               HypothesisMask allowed, ValueFit* out) {
  std::array<int, 8> x;
  for (int i = 0; i < 8; ++i) {
    if (view.panels[i].count == 0 || view.panels[i].common[attr] < 0) return 0;
    x[i] = view.panels[i].common[attr];
  }
  const ContextShape shape = shape_of(x, attr);
  const auto& list = model.entity[attr];
  int written = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Hypothesis& h = list[i];
    if (!((allowed >> i) & 1u)) continue;
    ValueFit f;
    f.hypothesis = static_cast<int>(i);
    bool ok = false;
    switch (h.rule.name) {
      case RuleName::kProgression:
        ok = shape.step == h.rule.value && fit_progression(x, h, f);
        break;
      case RuleName::kArithmetic:
        ok = shape.arith[h.rule.value > 0] && fit_arithmetic(x, h, attr, f);
        break;
      case RuleName::kDistributeThree: ok = shape.latin && fit_distribute_three(x, h, f); break;
      case RuleName::kConstant: break;
    }
    if (!ok) continue;
    f.log_lik = values_context_log_lik(h, attr, x);
    out[written++] = f;
  }
  return written;
}

}  // namespace rave::solver
