#pragma once
// Z3 terms for one component's nine panels and the rule semantics of docs/rules.md as constraints
// over them (docs/solver.md#posterior). Internal to the Z3 backend: the only headers that include
// z3++.h are here and in solver/z3_backend.cpp.
//
// Each panel is a handful of terms: the entity count (Int), the slot set (bit-vector of n bits,
// bit s = slot s), per attribute the level all entities share (Int, -1 when they differ), the
// levels by slot (bit-vector, 4 bits per slot holding level + 1, 0 when empty). Context panels are
// numerals; the 9th panel's terms are if-then-else chains over the answer variable. Terms fold
// constants (solver/z3/term.hpp), so the ground part of each rule is decided while the formula is
// built.
#include <z3++.h>

#include <array>
#include <vector>

#include "solver/abduction/hypothesis.hpp"
#include "solver/abduction/panel_view.hpp"
#include "solver/z3/term.hpp"

namespace rave::solver::z3enc {

/// One component of one panel as terms.
struct PanelTerms {
  Term count;
  Term mask;
  std::array<Term, 4> common;
  std::array<Term, 4> by_slot;
};

/// Builds the terms of one component's panels.
class Encoder {
 public:
  /// `answer` is the answer variable the 9th panel's terms split on.
  Encoder(z3::context& ctx, const LayoutModel& model, const z3::expr& answer);

  /// Numerals for a known panel.
  PanelTerms known(const PanelView& panel) const;
  /// The 9th panel: candidate i's terms when answer == i (i = 0..7).
  PanelTerms answer(const std::array<PanelView, 16>& panels) const;
  /// Hypothesis `h` of group 0 holds on the nine panels.
  Term group0(const Hypothesis& h, const std::vector<PanelTerms>& p) const;
  /// Non-Constant hypothesis `h` on `attr` holds (one level per panel, related per row).
  Term values(const Hypothesis& h, int attr, const std::vector<PanelTerms>& p) const;
  /// What Constant `attr` (or Angle) means under a carry: row-constant when `uniform`, copies under
  /// kSlot/kShift/kMove, and no constraint (noise) under kRegenerate.
  Term carry(Carry carry, int shift, bool uniform, int attr,
             const std::vector<PanelTerms>& p) const;

  z3::context& ctx() const { return ctx_; }

 private:
  static Term level(const PanelTerms& p) { return p.count - 1; }
  static Term in(const Term& x, engine::Range r) { return x >= r.min && x <= r.max; }
  static Term rotate(const Term& bits, int by);
  static Term latin(const std::array<Term, 9>& x);
  Term distribute_three_group0(const Hypothesis& h, const std::vector<PanelTerms>& p) const;
  Term arithmetic_values(const Hypothesis& h, int attr, const std::vector<PanelTerms>& p) const;
  Term moves(int attr, const std::vector<PanelTerms>& p) const;

  z3::context& ctx_;
  const z3::expr& answer_;
  int slots_;
};

}  // namespace rave::solver::z3enc
