#include "solver/component_fit.hpp"

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
                       const AllowedHypotheses& allowed, bool occam) {
  model_ = &model;
  view_ = &view;
  carry_count_ = 0;
  group0_count_ = fit_group0(model, view, allowed.group0, group0_.data());
  for (int a = 0; a < kRuleAttrs; ++a) {
    value_count_[a] = fit_values(model, a, view, allowed.entity[a], values_[a].data());
    constant_[a] = -1;
    const auto& list = model.entity[a];
    for (std::size_t k = 0; k < list.size(); ++k)
      if (list[k].rule.name == engine::RuleName::kConstant && ((allowed.entity[a] >> k) & 1u))
        constant_[a] = static_cast<int>(k);
    // Occam: noise is not a reading of an attribute some structured rule explains.
    noise_allowed_[a] = !occam || value_count_[a] == 0;
  }
  for (int k = 0; k < group0_count_; ++k) group0_carry_[k] = carry_slot(group0_[k]);
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
  CarrySlot& slot = carries_[carry_count_];
  slot.key = key;
  for (int a = 0; a < 4; ++a) slot.attrs[a] = fit_carry(key, a, model_->ranges[a], model_->slots, *view_);
  return carry_count_++;
}

// The sum over one attribute's rules for candidate `cand` under one carry: the non-Constant rules
// (precomputed in `values`, carry-independent) plus Constant read as `carry` says. Also reports the
// most probable of these rules in `best`.
double ComponentFit::attr_term(int attr, const CarrySlot& carry, const PanelView& cand,
                               const AttrTerms& values, AttrBest& best) const {
  double constant = kNoScore;
  const CarryFit& cf = carry.attrs[attr];
  if (constant_[attr] >= 0 && cf.fits && (!cf.noise || noise_allowed_[attr]) &&
      carry_accepts(carry.key, attr, model_->slots, *view_, cand))
    constant = model_->entity[attr][constant_[attr]].log_prior + cf.log_lik + cand.count * cf.log_per_entity;
  best = {values.best_rule, values.best_log, false};
  if (constant != kNoScore && constant > values.best_log) best = {constant_[attr], constant, cf.noise};
  return log_add(values.sum, constant);
}

double ComponentFit::score(int i, ComponentReading* best) const {
  const PanelView& cand = view_->panels[8 + i];
  if (cand.count == 0 || group0_count_ == 0) return kNoScore;
  // Non-Constant Type/Size/Color terms do not depend on the group-0 rule: one pass per attribute.
  std::array<AttrTerms, kRuleAttrs> values;
  for (int a = 0; a < kRuleAttrs; ++a) {
    for (int k = 0; k < value_count_[a]; ++k) {
      const ValueFit& f = values_[a][k];
      if (cand.common[a] != f.predicted) continue;
      const double t = model_->entity[a][f.hypothesis].log_prior + f.log_lik;
      values[a].sum = log_add(values[a].sum, t);
      if (t > values[a].best_log) values[a].best_log = t, values[a].best_rule = f.hypothesis;
    }
  }
  double total = kNoScore, best_joint = kNoScore;
  for (int k = 0; k < group0_count_; ++k) {
    const Group0Fit& g = group0_[k];
    double log_lik = model_->group0[g.hypothesis].log_prior + g.log_lik;
    if (!group0_accepts(g, *model_, cand, log_lik)) continue;
    const CarrySlot& carry = carries_[group0_carry_[k]];
    const CarryFit& angle = carry.attrs[kAngle];
    if (!angle.fits || !carry_accepts(carry.key, kAngle, model_->slots, *view_, cand)) continue;
    log_lik += angle.log_lik + cand.count * angle.log_per_entity;
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
  for (int a = 0; a < 4; ++a) {
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
