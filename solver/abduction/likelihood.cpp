// Sampling likelihoods of docs/solver.md, rule by rule (docs/rules.md say what is
// drawn): 1/|range| per freely drawn level, the Arithmetic col2 range given col1, 1/(R(R-1)(R-2)/2)
// for a Distribute_Three triple, 1/C(n, c) per fresh slot set of c entities.
#include "solver/abduction/likelihood.hpp"

#include <cmath>

#include "solver/abduction/semantics.hpp"

namespace rave::solver {
namespace {

using engine::RuleAttr;
using engine::RuleName;

// -log C(n, count) summed over the context panels: every slot set drawn afresh.
double fresh_sets(int slots, const ContextNumbers& counts) {
  double s = 0;
  for (int c : counts) s -= log_choose(slots, c);
  return s;
}

// -log of the number of ordered Distribute_Three triples up to rotation: R(R-1)(R-2)/2.
double triple(int r) { return -log_int(r) - log_int(r - 1) - log_int(r - 2) - log_int(2); }

double arithmetic_position(const Hypothesis& h, int slots, const ContextNumbers& counts) {
  double s = 0;
  for (int r = 0; r < 3; ++r) {
    const int c1 = counts[3 * r], c2 = counts[3 * r + 1];
    const double accept = arithmetic_position_accept(h.rule.value, h.range, slots, c1);
    s += -2 * log_int(h.range.size()) - log_choose(slots, c1) - log_choose(slots, c2) -
         std::log(accept);
  }
  return s;
}

double distribute_three_position(const Hypothesis& h, int slots, int count) {
  const double sets = static_cast<double>(binomial(slots, count));
  return -log_int(h.range.size()) - log_choose(slots, count) - std::log(sets - 1) -
         std::log(sets - 2) - log_int(2);
}

// Arithmetic col2 given col1, per row; Color's row 2 after a row-1 zero follows the guard.
double arithmetic_values(const Hypothesis& h, int attr, const ContextNumbers& x) {
  const ArithKind kind = attr == kSize ? ArithKind::kSize : ArithKind::kColor;
  double s = 0;
  for (int r = 0; r < 3; ++r) {
    const int a = 3 * r;
    if (kind == ArithKind::kColor && r == 1 && x[1] == 0)
      s += guarded_color_row2_log_lik(h.rule.value, h.range, x[a], x[a + 1]);
    else
      s += -log_int(h.range.size()) -
           log_int(arithmetic_col2_range(kind, h.rule.value, h.range, x[a]).size());
  }
  return s;
}

}  // namespace

double group0_context_log_lik(const Hypothesis& h, int slots, const ContextNumbers& counts) {
  const bool number = h.rule.attr == RuleAttr::kNumber;
  const double col1 = -log_int(h.range.size());
  double rows_of_sets = 0;  // col1's count and slot set per row (the others are computed)
  for (int r = 0; r < 3; ++r) rows_of_sets += col1 - log_choose(slots, counts[3 * r]);
  switch (h.rule.name) {
    case RuleName::kConstant: return rows_of_sets;
    case RuleName::kProgression:
      return number ? 3 * col1 + fresh_sets(slots, counts) : rows_of_sets;
    case RuleName::kArithmetic: {
      if (!number) return arithmetic_position(h, slots, counts);
      double s = fresh_sets(slots, counts);
      for (int r = 0; r < 3; ++r)
        s += col1 - log_int(arithmetic_col2_range(ArithKind::kNumber, h.rule.value, h.range,
                                                  counts[3 * r] - 1)
                                .size());
      return s;
    }
    case RuleName::kDistributeThree:
      return number ? triple(h.range.size()) + fresh_sets(slots, counts)
                    : distribute_three_position(h, slots, counts[0]);
  }
  return 0;
}

double group0_answer_log_lik(const Hypothesis& h, int slots, int count) {
  return predicts_count_only(h.rule) ? -log_choose(slots, count) : 0.0;
}

double values_context_log_lik(const Hypothesis& h, int attr, const ContextNumbers& x) {
  switch (h.rule.name) {
    case RuleName::kProgression: return -3 * log_int(h.range.size());
    case RuleName::kArithmetic: return arithmetic_values(h, attr, x);
    case RuleName::kDistributeThree: return triple(h.range.size());
    case RuleName::kConstant: break;
  }
  return 0;
}

double carry_context_log_lik(CarryReading reading, engine::Range range,
                             const ContextNumbers& counts) {
  const double per_entity = -log_int(range.size());
  double entities = 0;
  switch (reading) {
    case CarryReading::kUniform: return 3 * per_entity;
    case CarryReading::kCopies:
      for (int r = 0; r < 3; ++r) entities += counts[3 * r];
      return entities * per_entity;
    case CarryReading::kNoise:
      for (int c : counts) entities += c;
      return entities * per_entity;
  }
  return 0;
}

double carry_entity_log_lik(CarryReading reading, engine::Range range) {
  return reading == CarryReading::kNoise ? -log_int(range.size()) : 0.0;
}

}  // namespace rave::solver
