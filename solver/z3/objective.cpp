#include "solver/z3/objective.hpp"

#include <cmath>

namespace rave::solver::z3enc {
namespace {

std::int64_t scaled(double nats) {
  return std::isfinite(nats) ? std::llround(nats * kScale) : kImpossible;
}

Weights same_for_every_answer(double nats) {
  Weights w;
  w.fill(nats);
  return w;
}

}  // namespace

void Objective::add(const Term& chosen, const Weights& weights, const z3::expr& answer) {
  std::array<Term, 8> per_answer{Term::integer(0), Term::integer(0), Term::integer(0),
                                 Term::integer(0), Term::integer(0), Term::integer(0),
                                 Term::integer(0), Term::integer(0)};
  for (int i = 0; i < 8; ++i) per_answer[i] = Term::integer(scaled(weights[i]));
  terms_.push_back(ite(chosen, Term::cases(per_answer, answer), Term::integer(0)));
}

z3::expr Objective::to_expr(z3::context& ctx) const {
  z3::expr sum = ctx.int_val(0);
  for (const Term& t : terms_) sum = sum + t.to_expr(ctx);
  return sum;
}

Weights group0_weights(const LayoutModel& model, const Hypothesis& h, const ComponentView& view) {
  const double context = h.log_prior + group0_context_log_lik(h, model.slots, context_counts(view));
  Weights w;
  for (int i = 0; i < 8; ++i)
    w[i] = context + group0_answer_log_lik(h, model.slots, view.panels[8 + i].count);
  return w;
}

Weights value_weights(const Hypothesis& h, int attr, const ComponentView& view) {
  ContextNumbers levels;
  for (int i = 0; i < 8; ++i) levels[i] = view.panels[i].common[attr];
  return same_for_every_answer(h.log_prior + values_context_log_lik(h, attr, levels));
}

Weights carry_weights(const CarryKey& key, double log_prior, engine::Range range,
                      const ComponentView& view) {
  const CarryReading reading = carry_reading(key);
  const double context = log_prior + carry_context_log_lik(reading, range, context_counts(view));
  const double per_entity = carry_entity_log_lik(reading, range);
  Weights w;
  for (int i = 0; i < 8; ++i) w[i] = context + view.panels[8 + i].count * per_entity;
  return w;
}

}  // namespace rave::solver::z3enc
