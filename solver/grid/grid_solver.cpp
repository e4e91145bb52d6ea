#include "solver/grid/grid_solver.hpp"

#include <cmath>

#include "common/error.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/variant_space.hpp"
#include "engine/rules/variant_rules.hpp"
#include "solver/grid/grid_rules.hpp"

namespace rave::solver {
namespace {

using engine::RuleName;

struct PriorRule {
  engine::Rule rule;
  double log_prior = 0;
};

// The hypotheses of one component: every (rule, parameter) of its table per group, and per entity
// attribute whether a non-Constant rule explains the matrix for some candidate (then, with Occam,
// a Constant attribute is not read as noise).
struct ComponentHypotheses {
  std::array<std::vector<PriorRule>, engine::kNumRuleGroups> groups;
  std::array<bool, kGridAttrs> structured{};
};

// Whether a Number/Position rule can change anything in a layout: Number rules need two counts,
// Position rules two slots (a one-slot layout keeps its Number/Position Constant, as the original).
bool can_hold(const engine::RuleRow& row, const GridComponent& g) {
  if (row.attr == engine::RuleAttr::kNumber) return g.layout->number.size() >= 2;
  if (row.attr == engine::RuleAttr::kPosition) return g.slots >= 2;
  return true;
}

void add_row(const engine::VariantRules& table, int c, int group, const engine::RuleRow& row, std::vector<PriorRule>& out) {
  const auto add = [&](int value) {
    const engine::Rule rule{.name = row.name, .attr = row.attr, .value = value};
    if (const double p = table.prior(c, group, rule); p > 0) out.push_back({rule, std::log(p)});
  };
  if (row.params.empty()) add(0);
  for (int value : row.params) add(value);
}

ComponentHypotheses hypotheses(const engine::Problem& problem, int c, const GridComponent& g, const SolveOptions& options) {
  const engine::VariantRules& table = engine::variant_rules(problem.config, problem.variant, problem.split);
  ComponentHypotheses h;
  for (int group = 0; group < engine::kNumRuleGroups; ++group)
    for (const engine::RuleRow& row : table.rows.at(static_cast<std::size_t>(c))[static_cast<std::size_t>(group)]) {
      const engine::Rule& known = options.use_rules ? problem.rules[static_cast<std::size_t>(c)].rules[static_cast<std::size_t>(group)] : engine::Rule{};
      if ((!options.use_rules || (row.name == known.name && row.attr == known.attr)) && can_hold(row, g))
        add_row(table, c, group, row, h.groups[static_cast<std::size_t>(group)]);
    }
  for (int attr = 0; attr < kGridAttrs; ++attr)
    for (const PriorRule& r : h.groups[static_cast<std::size_t>(attr + 1)])
      for (int i = 0; i < engine::kCandidates && r.rule.name != RuleName::kConstant; ++i) {
        double unused = 0;
        if (entity_rule_holds(r.rule, attr, GridCarry{}, g, i, unused)) h.structured[static_cast<std::size_t>(attr)] = true;
      }
  return h;
}

// The best reading of entity attribute `attr` under `carry` (its log prior + likelihood), or kNoScore.
double best_attribute(const ComponentHypotheses& h, int attr, const GridCarry& carry, const GridComponent& g, int candidate,
                      const SolveOptions& options, ComponentReading& reading) {
  double best = kNoScore;
  for (const PriorRule& r : h.groups[static_cast<std::size_t>(attr + 1)]) {
    double log_lik = r.log_prior;
    if (!entity_rule_holds(r.rule, attr, carry, g, candidate, log_lik)) continue;
    const bool noise = r.rule.name == RuleName::kConstant && !g.uniform && carry.kind == GridCarry::kRegenerate;
    if (noise && options.occam && h.structured[static_cast<std::size_t>(attr)]) continue;
    if (log_lik <= best) continue;
    best = log_lik;
    reading.rules[static_cast<std::size_t>(attr + 1)] = r.rule;
    reading.noise[static_cast<std::size_t>(attr)] = noise;
  }
  return best;
}

// The most probable rule assignment of component `c` with `candidate` last, and its score.
double best_reading(const ComponentHypotheses& h, int c, const GridComponent& g, int candidate, const SolveOptions& options,
                    ComponentReading& out) {
  double best = kNoScore;
  for (const PriorRule& r0 : h.groups[0]) {
    GridCarry carry;
    double score = r0.log_prior;
    if (!group0_holds(r0.rule, g, candidate, carry, score)) continue;
    ComponentReading reading{.component = c};
    reading.rules[0] = r0.rule;
    for (int attr = 0; attr < kGridAttrs && score != kNoScore; ++attr)
      score += best_attribute(h, attr, carry, g, candidate, options, reading);
    if (score > best) {
      best = score;
      out = reading;
    }
  }
  return best;
}

void check_rules_known(const engine::Problem& problem, std::size_t components) {
  if (problem.rules.size() != components)
    throw InputError("", "Data/Rules",
                     problem.rules.empty() ? "the rule names are unknown (no Rules element), so they cannot be used"
                                           : "expected one rule group per component");
}

}  // namespace

bool needs_grid_solver(const engine::Problem& problem) {
  const engine::Variant& v = problem.variant;
  return v.grid != engine::kDefaultGrid || v.values != 0 || engine::is_value_regime(v.regime);
}

GridSolver::GridSolver(SolveOptions options) : options_(options) {}

Solution GridSolver::solve(const engine::Problem& problem) {
  const auto components = engine::configuration(problem.config).components.size();
  if (options_.use_rules) check_rules_known(problem, components);
  const engine::VariantSpace& space = engine::variant_space(problem.config, problem.variant, problem.split);
  Solution s;
  s.log_score.fill(0);
  readings_ = {};
  for (std::size_t c = 0; c < components; ++c) {
    const GridComponent g = build_grid_component(problem, static_cast<int>(c), space);
    const ComponentHypotheses h = hypotheses(problem, static_cast<int>(c), g, options_);
    for (int i = 0; i < engine::kCandidates; ++i) {
      double& score = s.log_score[static_cast<std::size_t>(i)];
      if (score == kNoScore) continue;
      Reading& r = readings_[static_cast<std::size_t>(i)];
      score += best_reading(h, static_cast<int>(c), g, i, options_, r.components[c]);
      r.count = score == kNoScore ? 0 : static_cast<int>(c) + 1;
    }
  }
  for (int i = 0; i < engine::kCandidates; ++i) {
    if (s.log_score[static_cast<std::size_t>(i)] == kNoScore) continue;
    s.consistent |= static_cast<std::uint8_t>(1u << i);
    if (!s.answer || s.log_score[static_cast<std::size_t>(i)] > s.log_score[static_cast<std::size_t>(*s.answer)]) s.answer = i;
  }
  s.verdict = verdict_of(s.consistent);
  if (s.verdict == Verdict::kNone) s.reason = "no candidate completes rules that hold on every row of the matrix";
  return s;
}

Reading GridSolver::reading(int candidate) const {
  if (candidate < 0 || candidate >= engine::kCandidates) return {};
  const Reading& r = readings_[static_cast<std::size_t>(candidate)];
  return r.count > 0 ? r : Reading{};
}

}  // namespace rave::solver
