#pragma once
// Whether a rule holds on every row of an N x N matrix of one component, as docs/variants.md
// generalizes the RAVEN rules to N columns: Progression over N panels, Arithmetic as the sum (or
// difference) of the first N-1 panels, Distribute_N as a Latin square of cyclic shifts. The checks
// read the whole matrix with a candidate as its last panel; each also says how likely the last
// panel's free parts are (a slot set drawn afresh, noise levels), for ranking candidates that
// several readings explain (docs/solver.md#n-x-n-matrices).
//
//   GridCarry carry;
//   double log_lik = 0;
//   if (group0_holds(rule, g, candidate, carry, log_lik) &&
//       entity_rule_holds(other, kSize, carry, g, candidate, log_lik)) ...
#include "engine/model/rule.hpp"
#include "solver/grid/grid_view.hpp"

namespace rave::solver {

/// How the group-0 rule carries entities along a row, which decides what a Constant Type, Size or
/// Color means (docs/rules.md#noise): kind and, for kShift, the step.
struct GridCarry {
  enum Kind { kSlot, kShift, kMove, kRegenerate } kind = kSlot;
  int shift = 0;
};

/// Whether the Number/Position rule `rule` holds on every row with candidate `candidate` last;
/// sets the carry and adds the last panel's log-likelihood (its fresh slot set) to `log_lik`.
bool group0_holds(const engine::Rule& rule, const GridComponent& g, int candidate, GridCarry& carry,
                  double& log_lik);

/// Whether the Type (0), Size (1) or Color (2) rule `rule` holds on every row with candidate
/// `candidate` last, under the group-0 carry; adds the last panel's log-likelihood (noise levels of
/// a regenerated non-uniform layout) to `log_lik`.
bool entity_rule_holds(const engine::Rule& rule, int attr, const GridCarry& carry,
                       const GridComponent& g, int candidate, double& log_lik);

}  // namespace rave::solver
