#pragma once
// The joint abduction for one component (docs/solver.md#posterior): all hypotheses fitted once on
// the 8 context panels, then each candidate scored as the 9th panel by
//   log sum over (group-0 rule g) x (Type, Size, Color rules) of prior x likelihood,
// where the meaning of a Constant attribute (and of Angle) depends on g and on Uniformity. The sum
// factorises: per g, a product over attributes of (sum over that attribute's rules).
//
//   ComponentFit fit;
//   fit.fit(model, view, allowed, /*occam=*/true, /*angle=*/true);
//   std::uint8_t maybe = fit.possible();     // bit i clear: candidate i scores -inf
//   double s = fit.score(3);                 // -inf: no rule assignment explains candidate 3
//   ComponentReading why = fit.reading(3);   // the most probable assignment
#include <array>
#include <cstdint>
#include <limits>
#include <string>

#include "solver/abduction/fits.hpp"

namespace rave::solver {

inline constexpr double kNoScore = -std::numeric_limits<double>::infinity();

/// One rule assignment of a component: what explains the candidate.
struct ComponentReading {
  int component = 0;
  std::array<engine::Rule, 4> rules{};  ///< [0] Number/Position, [1] Type, [2] Size, [3] Color
  std::array<bool, 3> noise{};          ///< Constant read as noise (regenerated, non-uniform)
  friend bool operator==(const ComponentReading&, const ComponentReading&) = default;
};

class ComponentFit {
 public:
  /// Fits every allowed hypothesis on the context of `view`. With `occam`, an attribute's noise
  /// reading is dropped when a non-Constant rule explains it on the context (abduction.md 2);
  /// without `angle`, Angle plays no part (SolveOptions::angle).
  void fit(const LayoutModel& model, const ComponentView& view, const AllowedHypotheses& allowed,
           bool occam, bool angle = true);

  /// Log posterior (unnormalised) of candidate `i` (0..7) as the 9th panel; kNoScore if no rule
  /// assignment explains it. With `best`, also writes the most probable assignment.
  double score(int i, ComponentReading* best = nullptr) const;
  /// Whether any rule assignment explains candidate `i` (cheaper than score()).
  bool consistent(int i) const { return score(i) != kNoScore; }
  /// Bit i set when candidate i may be explained: a superset of the candidates score() explains,
  /// decided for all 8 at once by comparisons (cheap, and with few data-dependent branches).
  std::uint8_t possible() const;

  /// Empty when every rule group has a hypothesis fitting the context; else which one lacks it
  /// ("Number/Position", "Type", "Size", "Color", "Angle").
  std::string context_gap() const;

 private:
  struct CarrySlot {  // readings of Type, Size, Color, Angle under one carry, fitted by fit()
    CarryKey key;
    std::array<CarryFit, 4> attrs;        // the reading of attr on the context
    std::array<std::uint8_t, 4> accepts;  // bit i: candidate i continues the reading of attr
  };
  void fit_carries();
  std::uint8_t accepts_of(const CarrySlot& slot, int attr) const;
  std::uint8_t possible_under(int k, const std::array<std::uint8_t, kRuleAttrs>& values) const;
  struct AttrTerms {  // non-Constant rules matching a candidate on one attribute
    double sum = kNoScore;
    double best_log = kNoScore;
    int best_rule = -1;
  };
  struct AttrBest {  // the most probable rule on one attribute
    int rule = -1;
    double log = kNoScore;
    bool noise = false;
  };
  int carry_slot(const Group0Fit& g);
  std::array<AttrTerms, kRuleAttrs> value_terms(const PanelView& cand) const;
  double attr_term(int attr, const CarrySlot& carry, const PanelView& cand, const AttrTerms& values,
                   AttrBest& best) const;

  const LayoutModel* model_ = nullptr;
  const ComponentView* view_ = nullptr;
  bool angle_ = true;
  std::array<Group0Fit, 32> group0_{};
  int group0_count_ = 0;
  std::array<int, 32> group0_carry_{};      // index into carries_
  std::array<double, 32> group0_weight_{};  // log prior + context log-likelihood
  std::array<std::array<ValueFit, 8>, kRuleAttrs> values_{};
  std::array<int, kRuleAttrs> value_count_{};
  std::array<std::array<double, 8>, kRuleAttrs>
      value_weight_{};  // log prior + context log-likelihood
  std::array<int, kRuleAttrs>
      constant_{};  // index of Constant in model.entity[a], -1 if not allowed
  std::array<double, kRuleAttrs> constant_weight_{};  // log prior of Constant
  std::array<bool, kRuleAttrs> noise_allowed_{};
  std::array<CarrySlot, 7> carries_{};
  int carry_count_ = 0;
};

}  // namespace rave::solver
