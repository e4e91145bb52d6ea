#pragma once
// The log-posterior of one rule assignment (docs/solver.md: log prior x sampling likelihood)
// as a Z3 integer term, so that Z3 itself ranks the candidates it proved consistent: the most
// probable assignment with answer = i scores candidate i (the maximum over assignments, where the
// heuristic backend sums over them). Each selector choice adds its prior and the likelihood of
// what it leaves free; the likelihood of the 9th panel depends on the answer, so every weight is
// one number per answer value. Weights are scaled to integers (kScale per nat); a choice the
// generator cannot make weighs kImpossible. Internal to the Z3 backend.
//
//   Objective objective;
//   objective.add(Term(g == 3), group0_weights(model, model.group0[3], view));
//   opt.maximize(objective.to_expr(ctx));
#include <z3++.h>

#include <array>
#include <vector>

#include "solver/abduction/fits.hpp"
#include "solver/z3/term.hpp"

namespace rave::solver::z3enc {

/// One weight (a log-probability, nats) per answer value 0..7.
using Weights = std::array<double, 8>;

inline constexpr double kScale = 1e6;                            ///< integer units per nat
inline constexpr std::int64_t kImpossible = -1'000'000'000'000;  ///< a choice of probability 0

/// A sum of "if chosen then weight" terms.
class Objective {
 public:
  /// Adds `weights[answer]` when `chosen` holds.
  void add(const Term& chosen, const Weights& weights, const z3::expr& answer);
  /// The sum as a Z3 integer term (0 when empty).
  z3::expr to_expr(z3::context& ctx) const;
  /// The sum's value in nats from a model's value of to_expr().
  static double nats(std::int64_t scaled) { return static_cast<double>(scaled) / kScale; }

 private:
  std::vector<Term> terms_;
};

/// Group-0 hypothesis `h`: prior, the context's counts and slot sets, the 9th panel's fresh set.
Weights group0_weights(const LayoutModel& model, const Hypothesis& h, const ComponentView& view);
/// Non-Constant hypothesis `h` on `attr`: prior and the context's levels.
Weights value_weights(const Hypothesis& h, int attr, const ComponentView& view);
/// A Constant attribute (`log_prior` its prior; 0 for Angle) read under `key`: the context's
/// levels and, for noise, the 9th panel's entities.
Weights carry_weights(const CarryKey& key, double log_prior, engine::Range range,
                      const ComponentView& view);

}  // namespace rave::solver::z3enc
