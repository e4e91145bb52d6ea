#pragma once
// Hypothesis checks on the 8 context panels of one component (docs/solver.md#posterior). Each fit
// says that a hypothesis holds on rows 1 and 2 and on row 3's first two panels, with the context's
// log-likelihood under the generator's sampling (prior not included), and what it predicts for the
// 9th panel, so that scoring a candidate is a comparison plus a constant.
//
//   Group0Fit fits[32];
//   int n = fit_group0(model, view, allowed.group0, fits);
//   bool ok = group0_accepts(fits[0], model, view.panels[8 + i], &extra_log_lik);
#include <array>
#include <cstdint>

#include "solver/abduction/hypothesis.hpp"
#include "solver/abduction/likelihood.hpp"
#include "solver/abduction/panel_view.hpp"
#include "solver/abduction/semantics.hpp"

namespace rave::solver {

/// A Number/Position hypothesis that fits the context.
struct Group0Fit {
  int hypothesis = 0;  ///< index into LayoutModel::group0
  double log_lik = 0;  ///< counts and slot sets of the 8 context panels
  Carry carry = Carry::kSlot;
  int shift = 0;            ///< Progression Position step (kShift)
  bool count_only = false;  ///< predicts the count; the 9th slot set is drawn fresh
  int count = 0;            ///< predicted entity count of the 9th panel
  std::uint16_t mask = 0;   ///< predicted slot set (unless count_only)
};

/// Fits of every allowed group-0 hypothesis; returns how many were written to `out` (<= 32).
int fit_group0(const LayoutModel& model, const ComponentView& view, HypothesisMask allowed,
               Group0Fit* out);
/// Whether `panel` is the predicted 9th panel; adds the log-likelihood of its fresh slot set.
inline bool group0_accepts(const Group0Fit& fit, const LayoutModel& model, const PanelView& panel,
                           double& log_lik);

/// A Type/Size/Color hypothesis other than Constant that fits the context: it makes the attribute
/// one level per panel (docs/rules.md#type-size-and-color-rules) and predicts the 9th panel's
/// level.
struct ValueFit {
  int hypothesis = 0;  ///< index into LayoutModel::entity[attr]
  double log_lik = 0;  ///< levels of the 8 context panels
  int predicted = 0;   ///< level of every entity of the 9th panel
};

/// Fits of every allowed non-Constant hypothesis on `attr` (<= 8 written).
int fit_values(const LayoutModel& model, int attr, const ComponentView& view,
               HypothesisMask allowed, ValueFit* out);

/// Distribute_Three Position's carry of one attribute (docs/rules.md): col2 and col3 are col1 with
/// its entities moved to the row's next slot sets, entity j of one set's position array to entry j
/// of the next, and the arrays are the same in every row. Which slot went to which is not in the
/// picture, only the levels: an entity's *signature* is its levels in the three rows (4 bits per
/// row, level + 1), and the moves exist exactly when the three slot sets hold equal multisets of
/// signatures. The 9th panel completes the signatures of its set (rows 1-2 known).
struct MoveFit {
  std::uint16_t answer_mask = 0;                    ///< the 9th panel's slot set
  int count = 0;                                    ///< entities per panel
  std::array<std::uint16_t, kMaxSlots> expected{};  ///< the full signatures, sorted (first `count`)
  std::array<std::uint16_t, kMaxSlots>
      partial{};  ///< by slot of answer_mask: rows 1-2 of its signature
};

/// What an attribute left to Constant (or Angle, never ruled) means under one carry
/// (docs/rules.md): one level per row in a uniform layout, per-entity copies under
/// kSlot/kShift/kMove, noise under kRegenerate.
struct CarryFit {
  bool fits = false;          ///< the context is consistent with this reading
  bool noise = false;         ///< free per entity (kRegenerate, non-uniform)
  double log_lik = 0;         ///< the context's levels
  double log_per_entity = 0;  ///< noise: log-likelihood of one 9th-panel entity
  MoveFit move;               ///< kMove (non-uniform): what the 9th panel must complete
};

/// Which reading applies: kind of carry and step, or uniform (all carries read alike).
struct CarryKey {
  Carry carry = Carry::kSlot;
  int shift = 0;
  bool uniform = false;
};

/// The entity counts of the 8 context panels.
inline ContextNumbers context_counts(const ComponentView& view) {
  ContextNumbers counts;
  for (int i = 0; i < 8; ++i) counts[i] = view.panels[i].count;
  return counts;
}

/// How `key` reads a Constant attribute: one level per row, copies, or noise.
CarryReading carry_reading(const CarryKey& key);
/// The reading of `attr` (Type, Size, Color or Angle) under `key` on the context, with `range` the
/// levels a fresh value is drawn from.
CarryFit fit_carry(const CarryKey& key, int attr, engine::Range range, int slots,
                   const ComponentView& view);
/// Distribute_Three Position's moves of `attr` on the context (MoveFit); false when no moves fit.
/// `log_ratio` gets log(#moves fitting the context and a completing 9th panel / #moves fitting
/// the context): the moves are equally likely, so this is the 9th panel's probability.
bool fit_move(int attr, const ComponentView& view, MoveFit& out, double& log_ratio);
/// Whether `panel` completes the signatures of a MoveFit on `attr`.
bool move_accepts(const MoveFit& fit, int attr, const PanelView& panel);
/// Whether `to` copies `from`'s entities on `attr` under kSlot (same slots) or kShift (slots moved
/// by v, docs/rules.md); kRegenerate copies nothing and constrains nothing. (kMove: see MoveFit.)
inline bool carry_copies(const CarryKey& key, int attr, int slots, const PanelView& from,
                         const PanelView& to);
/// Whether the 9th panel `panel` continues the reading `fit` of `attr` under `key`.
inline bool carry_accepts(const CarryKey& key, const CarryFit& fit, int attr, int slots,
                          const ComponentView& view, const PanelView& panel);

// Inline definitions: these run once per candidate and hypothesis.

inline bool group0_accepts(const Group0Fit& fit, const LayoutModel& model, const PanelView& panel,
                           double& log_lik) {
  if (panel.count == 0) return false;
  if (!fit.count_only) return panel.mask == fit.mask;
  if (panel.count != fit.count) return false;
  log_lik -= log_choose(model.slots, panel.count);
  return true;
}

// The packed levels make each carry one compare (PanelView): the entity on slot s keeps its level
// on slot s (kSlot) or s + v (kShift) exactly when the by-slot levels agree after the move.
inline bool carry_copies(const CarryKey& key, int attr, int slots, const PanelView& from,
                         const PanelView& to) {
  switch (key.carry) {
    case Carry::kSlot: return from.by_slot[attr] == to.by_slot[attr];
    case Carry::kShift:
      return shift_levels(from.by_slot[attr], key.shift, slots) == to.by_slot[attr];
    case Carry::kMove: break;  // not between two panels: MoveFit
    case Carry::kRegenerate: return true;
  }
  return false;
}

inline bool carry_accepts(const CarryKey& key, const CarryFit& fit, int attr, int slots,
                          const ComponentView& view, const PanelView& panel) {
  const PanelView& col2 = view.panels[7];
  if (key.uniform) return panel.common[attr] >= 0 && panel.common[attr] == col2.common[attr];
  if (key.carry == Carry::kMove) return move_accepts(fit.move, attr, panel);
  return carry_copies(key, attr, slots, col2, panel);
}

}  // namespace rave::solver
