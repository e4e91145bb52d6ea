#include "solver/abduction/component_fit.hpp"

#include <cmath>

#include "common/error.hpp"

namespace rave::solver {
namespace {

// log(exp(a) + exp(b)) without exp/log when one side is -inf (the common case).
double log_add(double a, double b) {
  if (a == kNoScore) return b;
  if (b == kNoScore) return a;
  return a > b ? a + std::log1p(std::exp(b - a)) : b + std::log1p(std::exp(a - b));
}

constexpr std::array<const char*, 4> kAttrNames{"Type", "Size", "Color", "Angle"};

}  // namespace

void ComponentFit::fit(const LayoutModel& model, const ComponentView& view,
                       const AllowedHypotheses& allowed, bool occam, bool angle) {
  model_ = &model;
  view_ = &view;
  angle_ = angle;
  carry_count_ = 0;
  group0_count_ = fit_group0(model, view, allowed.group0, group0_.data());
  for (int a = 0; a < kRuleAttrs; ++a) {
    value_count_[a] = fit_values(model, a, view, allowed.entity[a], values_[a].data());
    const int constant = model.constant[a];
    constant_[a] = constant >= 0 && ((allowed.entity[a] >> constant) & 1u) ? constant : -1;
    if (constant_[a] >= 0) constant_weight_[a] = model.entity[a][constant].log_prior;
    // Occam: noise is not a reading of an attribute some structured rule explains.
    noise_allowed_[a] = !occam || value_count_[a] == 0;
  }
  for (int k = 0; k < group0_count_; ++k) {
    group0_carry_[k] = carry_slot(group0_[k]);
    group0_weight_[k] = model.group0[group0_[k].hypothesis].log_prior + group0_[k].log_lik;
  }
  fit_carries();
  for (int a = 0; a < kRuleAttrs; ++a)
    for (int v = 0; v < value_count_[a]; ++v)
      value_weight_[a][v] =
          model.entity[a][values_[a][v].hypothesis].log_prior + values_[a][v].log_lik;
}

int ComponentFit::carry_slot(const Group0Fit& g) {
  CarryKey key;
  key.uniform = view_->uniform;
  if (!key.uniform) {
    key.carry = g.carry;
    key.shift = g.shift;
  }
  for (int c = 0; c < carry_count_; ++c) {
    const CarryKey& k = carries_[c].key;
    if (k.uniform == key.uniform && k.carry == key.carry && k.shift == key.shift) return c;
  }
  RAVE_CHECK(carry_count_ < static_cast<int>(carries_.size()), "more carry kinds than expected");
  carries_[carry_count_].key = key;
  return carry_count_++;
}

// Every carry's readings and the candidates continuing them, once per fit (a handful of carries;
// Angle only when it plays a part).
void ComponentFit::fit_carries() {
  for (int c = 0; c < carry_count_; ++c) {
    CarrySlot& slot = carries_[c];
    for (int attr = 0; attr < 4; ++attr) {
      if (attr == kAngle && !angle_) continue;
      slot.attrs[attr] = fit_carry(slot.key, attr, model_->ranges[attr], model_->slots, *view_);
      slot.accepts[attr] = accepts_of(slot, attr);
    }
  }
}

// Bit i: candidate i continues the reading of `attr` under `slot` (carry_accepts for all 8).
std::uint8_t ComponentFit::accepts_of(const CarrySlot& slot, int attr) const {
  const PanelView& col2 = view_->panels[7];
  const CarryKey& key = slot.key;
  unsigned bits = 0;
  if (key.uniform) {
    const int level = col2.common[attr];
    for (int i = 0; i < 8; ++i)
      bits |= static_cast<unsigned>(level >= 0 && view_->panels[8 + i].common[attr] == level) << i;
  } else if (key.carry == Carry::kRegenerate) {
    bits = 0xFFu;
  } else if (key.carry == Carry::kMove) {
    const MoveFit& move = slot.attrs[attr].move;
    for (int i = 0; i < 8; ++i)
      bits |= static_cast<unsigned>(move_accepts(move, attr, view_->panels[8 + i])) << i;
  } else {  // carry_copies from col2, its compare hoisted out of the loop
    const PackedLevels expected = key.carry == Carry::kShift
                                      ? shift_levels(col2.by_slot[attr], key.shift, model_->slots)
                                      : col2.by_slot[attr];
    for (int i = 0; i < 8; ++i)
      bits |= static_cast<unsigned>(expected == view_->panels[8 + i].by_slot[attr]) << i;
  }
  return static_cast<std::uint8_t>(bits);
}

// The candidates group-0 fit k may explain, given `values` (per attribute, the candidates some
// non-Constant rule explains): score()'s conditions for fit k, without the likelihoods.
std::uint8_t ComponentFit::possible_under(
    int k, const std::array<std::uint8_t, kRuleAttrs>& values) const {
  const Group0Fit& g = group0_[k];
  unsigned bits = 0;
  for (int i = 0; i < 8; ++i) {
    const PanelView& cand = view_->panels[8 + i];
    const bool predicted = g.count_only ? cand.count == g.count : cand.mask == g.mask;
    bits |= static_cast<unsigned>(cand.count != 0 && predicted) << i;
  }
  const CarrySlot& carry = carries_[group0_carry_[k]];
  if (angle_) {
    if (bits == 0 || !carry.attrs[kAngle].fits) return 0;
    bits &= carry.accepts[kAngle];
  }
  for (int a = 0; a < kRuleAttrs && bits != 0; ++a) {
    unsigned constant = 0;
    if (constant_[a] >= 0) {
      const CarryFit& cf = carry.attrs[a];
      if (cf.fits && (!cf.noise || noise_allowed_[a])) constant = carry.accepts[a];
    }
    bits &= values[a] | constant;
  }
  return static_cast<std::uint8_t>(bits);
}

// Guarantee: every candidate score() explains is in the result (each bit tests conditions that
// score() requires of some group-0 fit), so scoring only these changes no score.
std::uint8_t ComponentFit::possible() const {
  std::array<std::uint8_t, kRuleAttrs> values{};
  for (int a = 0; a < kRuleAttrs; ++a)
    for (int v = 0; v < value_count_[a]; ++v)
      for (int i = 0; i < 8; ++i)
        values[a] = static_cast<std::uint8_t>(
            values[a] |
            static_cast<unsigned>(view_->panels[8 + i].common[a] == values_[a][v].predicted) << i);
  unsigned out = 0;
  for (int k = 0; k < group0_count_; ++k) out |= possible_under(k, values);
  return static_cast<std::uint8_t>(out);
}

// The sum over one attribute's rules for candidate `cand` under one carry: the non-Constant rules
// (precomputed in `values`, carry-independent) plus Constant read as `carry` says. Also reports the
// most probable of these rules in `best`.
double ComponentFit::attr_term(int attr, const CarrySlot& carry, const PanelView& cand,
                               const AttrTerms& values, AttrBest& best) const {
  double constant = kNoScore;
  bool noise = false;
  if (constant_[attr] >= 0) {
    const CarryFit& cf = carry.attrs[attr];
    noise = cf.noise;
    if (cf.fits && (!cf.noise || noise_allowed_[attr]) &&
        carry_accepts(carry.key, cf, attr, model_->slots, *view_, cand))
      constant = constant_weight_[attr] + cf.log_lik + cand.count * cf.log_per_entity;
  }
  best = {values.best_rule, values.best_log, false};
  if (constant != kNoScore && constant > values.best_log) best = {constant_[attr], constant, noise};
  return log_add(values.sum, constant);
}

// The non-Constant Type/Size/Color rules that accept a candidate (they do not depend on g).
std::array<ComponentFit::AttrTerms, kRuleAttrs> ComponentFit::value_terms(
    const PanelView& cand) const {
  std::array<AttrTerms, kRuleAttrs> values;
  for (int a = 0; a < kRuleAttrs; ++a)
    for (int v = 0; v < value_count_[a]; ++v) {
      if (cand.common[a] != values_[a][v].predicted) continue;
      const double t = value_weight_[a][v];
      values[a].sum = log_add(values[a].sum, t);
      if (t > values[a].best_log)
        values[a].best_log = t, values[a].best_rule = values_[a][v].hypothesis;
    }
  return values;
}

// Core of the posterior (docs/solver.md#posterior). Assumes fit() ran on the current view. For each
// group-0 fit that accepts the candidate, adds Angle's reading under its carry and, per attribute,
// the sum over that attribute's rules; the candidate's score is the log-sum over g. Guarantees:
// kNoScore exactly when no allowed rule assignment explains the candidate; the reading written to
// `best` maximises the joint term (max over g and over each attribute's rules).
double ComponentFit::score(int i, ComponentReading* best) const {
  const PanelView& cand = view_->panels[8 + i];
  if (cand.count == 0) return kNoScore;
  std::array<AttrTerms, kRuleAttrs> values;
  bool values_done = false;
  double total = kNoScore, best_joint = kNoScore;
  for (int k = 0; k < group0_count_; ++k) {
    const Group0Fit& g = group0_[k];
    double log_lik = group0_weight_[k];
    if (!group0_accepts(g, *model_, cand, log_lik)) continue;
    const CarrySlot& carry = carries_[group0_carry_[k]];
    if (angle_) {
      const CarryFit& angle = carry.attrs[kAngle];
      if (!angle.fits || !carry_accepts(carry.key, angle, kAngle, model_->slots, *view_, cand))
        continue;
      log_lik += angle.log_lik + cand.count * angle.log_per_entity;
    }
    if (!values_done) values = value_terms(cand), values_done = true;  // once per candidate
    double joint = log_lik;  // max-product over the attribute rules, for the reading
    std::array<AttrBest, kRuleAttrs> chosen;
    bool explained = true;
    for (int a = 0; a < kRuleAttrs && explained; ++a) {
      const double term = attr_term(a, carry, cand, values[a], chosen[a]);
      explained = term != kNoScore;
      log_lik += term;
      joint += chosen[a].log;
    }
    if (!explained) continue;
    total = log_add(total, log_lik);
    if (best && joint > best_joint) {
      best_joint = joint;
      best->component = model_->component;
      best->rules[0] = model_->group0[g.hypothesis].rule;
      for (int a = 0; a < kRuleAttrs; ++a) {
        best->rules[a + 1] = model_->entity[a][chosen[a].rule].rule;
        best->noise[a] = chosen[a].noise;
      }
    }
  }
  return total;
}

std::string ComponentFit::context_gap() const {
  if (group0_count_ == 0) return "Number/Position";
  for (int a = 0; a < (angle_ ? 4 : kRuleAttrs); ++a) {
    bool any = a < kRuleAttrs && value_count_[a] > 0;
    for (int c = 0; c < carry_count_ && !any; ++c) {
      const CarryFit& cf = carries_[c].attrs[a];
      any = cf.fits && (a == kAngle || (constant_[a] >= 0 && (!cf.noise || noise_allowed_[a])));
    }
    if (!any) return kAttrNames[a];
  }
  return {};
}

}  // namespace rave::solver
