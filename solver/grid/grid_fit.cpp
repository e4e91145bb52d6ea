#include "solver/grid/grid_fit.hpp"

#include <cmath>

#include "engine/model/configuration.hpp"
#include "engine/model/variant_space.hpp"
#include "engine/rules/variant_rules.hpp"
#include "solver/abduction/hypothesis.hpp"
#include "solver/grid/grid_rules.hpp"

namespace rave::solver {
namespace {

using engine::RuleName;

struct PriorRule {
  engine::Rule rule;
  double log_prior = 0;
};

// Whether a Number/Position rule can change anything in a layout: Number rules need two counts,
// Position rules two slots (a one-slot layout keeps its Number/Position Constant, as the original).
bool can_hold(const engine::RuleRow& row, const GridComponent& g) {
  if (row.attr == engine::RuleAttr::kNumber) return g.layout->number.size() >= 2;
  if (row.attr == engine::RuleAttr::kPosition) return g.slots >= 2;
  return true;
}

void add_row(const engine::VariantRules& table, int c, int group, const engine::RuleRow& row,
             std::vector<PriorRule>& out) {
  const auto add = [&](int value) {
    const engine::Rule rule{.name = row.name, .attr = row.attr, .value = value};
    if (const double p = table.prior(c, group, rule); p > 0) out.push_back({rule, std::log(p)});
  };
  if (row.params.empty()) add(0);
  for (int value : row.params) add(value);
}

// Every (rule, parameter) of each group of component c's table (the stored names only with
// use_rules).
std::array<std::vector<PriorRule>, engine::kNumRuleGroups> hypotheses(
    const engine::Problem& problem, int c, const GridComponent& g, const SolveOptions& options) {
  const engine::VariantRules& table =
      engine::variant_rules(problem.config, problem.variant, problem.split);
  std::array<std::vector<PriorRule>, engine::kNumRuleGroups> out;
  for (int group = 0; group < engine::kNumRuleGroups; ++group) {
    const engine::Rule known =
        options.use_rules
            ? problem.rules[static_cast<std::size_t>(c)].rules[static_cast<std::size_t>(group)]
            : engine::Rule{};
    for (const engine::RuleRow& row :
         table.rows.at(static_cast<std::size_t>(c))[static_cast<std::size_t>(group)])
      if ((!options.use_rules || (row.name == known.name && row.attr == known.attr)) &&
          can_hold(row, g))
        add_row(table, c, group, row, out[static_cast<std::size_t>(group)]);
  }
  return out;
}

// Whether a non-Constant rule explains `attr` for some candidate (Occam: then it is not noise).
bool structured(const std::vector<PriorRule>& list, int attr, const GridComponent& g) {
  for (const PriorRule& r : list)
    for (int i = 0; i < engine::kCandidates && r.rule.name != RuleName::kConstant; ++i) {
      double unused = 0;
      if (entity_rule_holds(r.rule, attr, GridCarry{}, g, i, unused)) return true;
    }
  return false;
}

GridEntityFit fit_entity(const PriorRule& r, int attr, const GridCarry& carry,
                         const GridComponent& g, bool no_noise) {
  GridEntityFit f{.rule = r.rule,
                  .log_prior = r.log_prior,
                  .noise = r.rule.name == RuleName::kConstant && !g.uniform &&
                           carry.kind == GridCarry::kRegenerate};
  if (f.noise && no_noise) return f;  // holds for none
  for (int i = 0; i < engine::kCandidates; ++i) {
    double log_lik = 0;
    if (!entity_rule_holds(r.rule, attr, carry, g, i, log_lik)) continue;
    f.holds |= static_cast<std::uint8_t>(1u << i);
    f.log_lik[static_cast<std::size_t>(i)] = log_lik;
  }
  return f;
}

}  // namespace

GridComponentFit fit_grid_component(const engine::Problem& problem, int component,
                                    const SolveOptions& options) {
  if (options.use_rules) require_rule_names(problem);
  const engine::VariantSpace& space =
      engine::variant_space(problem.config, problem.variant, problem.split);
  const GridComponent g = build_grid_component(problem, component, space);
  const auto lists = hypotheses(problem, component, g, options);
  std::array<bool, kGridAttrs> no_noise{};
  for (int a = 0; a < kGridAttrs; ++a)
    no_noise[static_cast<std::size_t>(a)] =
        options.occam && structured(lists[static_cast<std::size_t>(a + 1)], a, g);
  GridComponentFit fit;
  for (const PriorRule& r0 : lists[0]) {
    GridGroup0Fit f{.rule = r0.rule, .log_prior = r0.log_prior};
    GridCarry carry;
    for (int i = 0; i < engine::kCandidates; ++i) {
      double log_lik = 0;
      if (!group0_holds(r0.rule, g, i, carry, log_lik)) continue;
      f.holds |= static_cast<std::uint8_t>(1u << i);
      f.log_lik[static_cast<std::size_t>(i)] = log_lik;
    }
    if (f.holds != 0)
      for (int a = 0; a < kGridAttrs; ++a)
        for (const PriorRule& r : lists[static_cast<std::size_t>(a + 1)])
          f.attrs[static_cast<std::size_t>(a)].push_back(
              fit_entity(r, a, carry, g, no_noise[static_cast<std::size_t>(a)]));
    fit.group0.push_back(std::move(f));
  }
  return fit;
}

double best_grid_reading(const GridComponentFit& fit, int i, ComponentReading& out) {
  const auto at = static_cast<std::size_t>(i);
  double best = kNoScore;
  for (const GridGroup0Fit& f : fit.group0) {
    if ((f.holds >> i & 1u) == 0) continue;
    ComponentReading reading = out;
    reading.rules[0] = f.rule;
    double score = f.log_prior + f.log_lik[at];
    for (std::size_t a = 0; a < f.attrs.size() && score != kNoScore; ++a) {
      double best_attr = kNoScore;
      for (const GridEntityFit& e : f.attrs[a]) {
        const double s = e.log_prior + e.log_lik[at];
        if ((e.holds >> i & 1u) == 0 || s <= best_attr) continue;
        best_attr = s;
        reading.rules[a + 1] = e.rule;
        reading.noise[a] = e.noise;
      }
      score += best_attr;
    }
    if (score > best) {
      best = score;
      out = reading;
    }
  }
  return best;
}

}  // namespace rave::solver
