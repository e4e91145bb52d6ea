#pragma once
// The generator's sampling likelihoods (docs/solver.md): how probable the levels, counts and
// slot sets that a rule leaves free are, as plain functions of the panels' numbers. A hypothesis
// is assumed to hold on the panels (the checks are elsewhere); these only weigh it. Both backends
// use them: the heuristic sums prior x likelihood over rule assignments, the Z3 backend maximises
// the same product, so the two rank by one posterior while deciding consistency each on its own.
//
//   double w = group0_context_log_lik(h, model.slots, counts);   // 8 context panels
//   w += group0_answer_log_lik(h, model.slots, count9);          // the 9th panel's fresh slot set
#include <array>

#include "solver/abduction/hypothesis.hpp"

namespace rave::solver {

/// Entity counts (or one attribute's levels) of the 8 context panels, row-major.
using ContextNumbers = std::array<int, 8>;

/// Group 0: the context's counts and slot sets under `h` (col1 levels, Arithmetic col2 levels,
/// Distribute_Three triples, and every slot set drawn afresh).
double group0_context_log_lik(const Hypothesis& h, int slots, const ContextNumbers& counts);
/// Group 0: the 9th panel's slot set when `h` predicts only its count (Number rules draw it
/// afresh: -log C(n, count)); 0 when `h` predicts the slot set itself.
double group0_answer_log_lik(const Hypothesis& h, int slots, int count);

/// A non-Constant Type/Size/Color hypothesis on `attr` (levels `x`, one per panel): col1 per row,
/// Arithmetic col2 given col1 (Color's row-2 guard included), Distribute_Three triples.
double values_context_log_lik(const Hypothesis& h, int attr, const ContextNumbers& x);

/// How a Constant attribute (or Angle) is read under a group-0 rule (docs/rules.md).
enum class CarryReading {
  kUniform,  ///< one level per row
  kCopies,   ///< col1's entities drawn, col2 and col3 copy them
  kNoise,    ///< every entity drawn afresh
};
/// The context's levels under a reading, `range` the attribute's levels, `counts` the entity
/// counts.
double carry_context_log_lik(CarryReading reading, engine::Range range,
                             const ContextNumbers& counts);
/// One entity of the 9th panel under a reading: -log |range| for noise, else 0 (a copy).
double carry_entity_log_lik(CarryReading reading, engine::Range range);

}  // namespace rave::solver
