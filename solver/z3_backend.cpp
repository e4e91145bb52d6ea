#include "solver/z3_backend.hpp"

#include <z3++.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "solver/heuristic.hpp"
#include "solver/panel_view.hpp"
#include "solver/z3/encoder.hpp"

namespace rave::solver {
namespace {

using z3enc::Encoder;
using z3enc::PanelTerms;
using z3enc::Term;

bool allowed_bit(HypothesisMask mask, std::size_t i) { return (mask >> i) & 1u; }

// The Z3 check outcome, with "unknown" kept as a value.
enum class Check { kSat, kUnsat, kUnknown };

Check to_check(z3::check_result r) {
  return r == z3::sat ? Check::kSat : r == z3::unsat ? Check::kUnsat : Check::kUnknown;
}

}  // namespace

// One component, prepared before anything of the problem is asserted: its panels as terms and
// what Occam allows (decided by separate scoped queries).
struct ComponentPlan {
  const LayoutModel* model = nullptr;
  AllowedHypotheses allowed;
  bool context_usable = true;
  std::array<bool, kRuleAttrs> noise_allowed{true, true, true};
  std::vector<PanelTerms> panels;  // 8 context panels, then the 9th (answer) panel
};

// The allowed group-0 hypotheses that share a carry.
struct CarryGroup {
  Carry carry;
  int shift;
  Term chosen;  // some group-0 selector of this carry is chosen
};

struct Z3Solver::Impl {
  SolveOptions options;
  Z3Budget budget;
  mutable z3::context ctx;  // Z3 needs a non-const context to build terms, even for reading a model
  // One solver for the Impl's lifetime, used incrementally (push/pop per problem and per Occam
  // query): creating a Z3 solver costs milliseconds, a scoped check on these formulas microseconds.
  z3::solver solver;
  HeuristicSolver ranker;
  std::array<ComponentView, 2> views{};
  std::array<Reading, 8> readings{};
  int checks = 0;
  std::string unknown_reason;

  Impl(SolveOptions o, Z3Budget b) : options(o), budget(b), solver(ctx), ranker(o) {
    z3::params p(ctx);
    if (budget.rlimit != 0) p.set("rlimit", budget.rlimit);
    if (budget.timeout_ms != 0) p.set("timeout", budget.timeout_ms);
    solver.set(p);
  }

  // Asserts a folded term (true needs no assertion).
  void add(const Term& t) {
    if (!t.is_true()) solver.add(t.to_expr(ctx));
  }

  Check check() {
    ++checks;
    const Check r = to_check(solver.check());
    if (r == Check::kUnknown && unknown_reason.empty())
      unknown_reason = "Z3 stopped before deciding (rlimit " + std::to_string(budget.rlimit) + ", timeout " +
                       std::to_string(budget.timeout_ms) + " ms; 0 = none): " + solver.reason_unknown();
    return r;
  }

  bool structured_fits(const Encoder& enc, const ComponentPlan& plan, int attr);
  void prepare(const engine::Problem& problem, int c, ComponentPlan& plan);
  void assert_component(int c, ComponentPlan& plan, const z3::expr& answer);
  std::vector<CarryGroup> assert_group0(int c, const ComponentPlan& plan, const Encoder& enc);
  void assert_attribute(int c, int a, const ComponentPlan& plan, const Encoder& enc,
                        const std::vector<CarryGroup>& carries);
  bool enumerate(const engine::Problem& problem, Solution& out);
  Reading reading_from(const z3::model& m, const engine::Problem& problem) const;
};

// Occam (docs/solver.md#posterior): does some allowed non-Constant rule explain `attr` on the 8
// context panels for some level of the 9th? The context is all numerals, so each instance folds to
// true or false while it is built (no Z3 check is needed for this ground question).
bool Z3Solver::Impl::structured_fits(const Encoder& enc, const ComponentPlan& plan, int attr) {
  std::vector<PanelTerms> panels = plan.panels;
  panels.push_back(plan.panels.back());
  const auto& list = plan.model->entity[attr];
  const engine::Range levels = plan.model->ranges[attr];
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!allowed_bit(plan.allowed.entity[attr], i) || list[i].rule.name == engine::RuleName::kConstant) continue;
    for (int level = levels.min; level <= levels.max; ++level) {
      panels[8].common[attr] = Term::integer(level);
      const Term fits = enc.values(list[i], attr, panels);
      RAVE_CHECK(fits.is_constant(), "a rule on numerals folds to a constant");
      if (fits.is_true()) return true;
    }
  }
  return false;
}

// Builds component c's view and context terms and decides Occam for its attributes.
void Z3Solver::Impl::prepare(const engine::Problem& problem, int c, ComponentPlan& plan) {
  plan.model = &layout_model(problem.config, c);
  const LayoutModel& model = *plan.model;
  if (options.use_rules && c < static_cast<int>(problem.rules.size())) plan.allowed = allowed_by(model, problem.rules[c]);
  const ComponentView& view = views[c];  // built by solve()
  for (int i = 0; i < 8; ++i) plan.context_usable = plan.context_usable && view.panels[i].count > 0;
  if (!plan.context_usable) return;
  const Encoder enc(ctx, model);
  for (int i = 0; i < 8; ++i) plan.panels.push_back(enc.known(view.panels[i]));
  bool regenerates = false;
  for (std::size_t k = 0; k < model.group0.size(); ++k)
    regenerates = regenerates ||
                  (allowed_bit(plan.allowed.group0, k) && carry_of(model.group0[k].rule) == Carry::kRegenerate);
  if (!options.occam || !regenerates || view.uniform) return;
  for (int a = 0; a < kRuleAttrs; ++a) plan.noise_allowed[a] = !structured_fits(enc, plan, a);
}

// Asserts component c: one selector per rule group over its allowed hypotheses, each implying its
// rule on the nine panels; Constant and Angle read per the group-0 rule's carry
// (docs/rules.md#noise).
void Z3Solver::Impl::assert_component(int c, ComponentPlan& plan, const z3::expr& answer) {
  if (!plan.context_usable) {  // an unusable context panel: no rule explains anything
    add(Term::boolean(false));
    return;
  }
  const ComponentView& view = views[c];
  for (int i = 0; i < 8; ++i)
    if (view.panels[8 + i].count == 0) add(Term(answer != i));
  const Encoder enc(ctx, *plan.model);
  plan.panels.push_back(enc.answer(view.panels, answer));
  const std::vector<CarryGroup> carries = assert_group0(c, plan, enc);
  for (const CarryGroup& cg : carries)
    add(implies(cg.chosen, enc.carry(cg.carry, cg.shift, view.uniform, kAngle, plan.panels)));
  for (int a = 0; a < kRuleAttrs; ++a) assert_attribute(c, a, plan, enc, carries);
}

// The Number/Position selector of component c; returns its hypotheses grouped by carry (the
// carry decides what Constant and Angle mean), so each carry's constraints are built once.
std::vector<CarryGroup> Z3Solver::Impl::assert_group0(int c, const ComponentPlan& plan, const Encoder& enc) {
  const LayoutModel& model = *plan.model;
  const z3::expr g = ctx.int_const(("group0_" + std::to_string(c)).c_str());
  std::vector<CarryGroup> carries;
  Term some = Term::boolean(false);
  for (std::size_t k = 0; k < model.group0.size(); ++k) {
    if (!allowed_bit(plan.allowed.group0, k)) continue;
    const Term chosen(g == static_cast<int>(k));
    some = some || chosen;
    add(implies(chosen, enc.group0(model.group0[k], plan.panels)));
    const Carry carry = carry_of(model.group0[k].rule);
    const int shift = carry == Carry::kShift ? model.group0[k].rule.value : 0;
    auto it = std::find_if(carries.begin(), carries.end(),
                           [&](const CarryGroup& cg) { return cg.carry == carry && cg.shift == shift; });
    if (it == carries.end())
      carries.push_back(CarryGroup{carry, shift, chosen});
    else
      it->chosen = it->chosen || chosen;
  }
  add(some);
  return carries;
}

// The selector of attribute `a` of component c; Constant means what each carry makes of it, and
// noise is excluded where Occam says a structured rule explains the attribute.
void Z3Solver::Impl::assert_attribute(int c, int a, const ComponentPlan& plan, const Encoder& enc,
                                      const std::vector<CarryGroup>& carries) {
  const auto& list = plan.model->entity[a];
  const bool uniform = views[c].uniform;
  const z3::expr t = ctx.int_const(("rule_" + std::to_string(c) + "_" + std::to_string(a)).c_str());
  Term some = Term::boolean(false);
  for (std::size_t r = 0; r < list.size(); ++r) {
    if (!allowed_bit(plan.allowed.entity[a], r)) continue;
    const Term chosen(t == static_cast<int>(r));
    some = some || chosen;
    if (list[r].rule.name != engine::RuleName::kConstant) {
      add(implies(chosen, enc.values(list[r], a, plan.panels)));
      continue;
    }
    for (const CarryGroup& cg : carries) {
      const bool noise = !uniform && cg.carry == Carry::kRegenerate;
      if (noise && plan.noise_allowed[a]) continue;  // noise: no constraint
      const Term meaning = noise ? Term::boolean(false) : enc.carry(cg.carry, cg.shift, uniform, a, plan.panels);
      add(implies(chosen && cg.chosen, meaning));
    }
  }
  add(some);
}

Reading Z3Solver::Impl::reading_from(const z3::model& m, const engine::Problem& problem) const {
  Reading r;
  const int components = static_cast<int>(engine::configuration(problem.config).components.size());
  for (int c = 0; c < components; ++c) {
    const LayoutModel& model = layout_model(problem.config, c);
    const std::string tag = std::to_string(c);
    auto value_of = [&](const std::string& name) {
      return m.eval(ctx.int_const(name.c_str()), true).get_numeral_int();
    };
    ComponentReading& out = r.components[c];
    out.component = c;
    const int g = value_of("group0_" + tag);
    out.rules[0] = model.group0[g].rule;
    for (int a = 0; a < kRuleAttrs; ++a) {
      const engine::Rule& rule = model.entity[a][value_of("rule_" + tag + "_" + std::to_string(a))].rule;
      out.rules[a + 1] = rule;
      out.noise[a] = rule.name == engine::RuleName::kConstant && !views[c].uniform &&
                     carry_of(out.rules[0]) == Carry::kRegenerate;
    }
  }
  r.count = components;
  return r;
}

Z3Solver::Z3Solver(SolveOptions options, Z3Budget budget) : impl_(std::make_unique<Impl>(options, budget)) {}
Z3Solver::~Z3Solver() = default;
Z3Solver::Z3Solver(Z3Solver&&) noexcept = default;
Z3Solver& Z3Solver::operator=(Z3Solver&&) noexcept = default;

int Z3Solver::checks() const { return impl_->checks; }

Reading Z3Solver::reading(int candidate) const {
  RAVE_CHECK(candidate >= 0 && candidate < 8, "candidate index out of range");
  return impl_->readings[candidate];
}

// Asserts the problem and enumerates the consistent candidates: each model names one; it is
// blocked and Z3 asked again until unsat (or a budget runs out: false).
bool Z3Solver::Impl::enumerate(const engine::Problem& problem, Solution& out) {
  const int components = static_cast<int>(engine::configuration(problem.config).components.size());
  const LayoutModel* models[2] = {&layout_model(problem.config, 0), nullptr};
  if (components == 2) models[1] = &layout_model(problem.config, 1);
  build_views(problem, components, models, views.data());
  std::array<ComponentPlan, 2> plans;
  for (int c = 0; c < components; ++c) prepare(problem, c, plans[c]);
  solver.push();  // everything of this problem is popped below
  const z3::expr answer = ctx.int_const("answer");
  solver.add(answer >= 0 && answer <= 7);
  for (int c = 0; c < components; ++c) assert_component(c, plans[c], answer);
  Check r = check();
  for (; r == Check::kSat; r = check()) {
    const z3::model m = solver.get_model();
    const int found = m.eval(answer, true).get_numeral_int();
    RAVE_CHECK(found >= 0 && found < 8 && !((out.consistent >> found) & 1u), "Z3 answer out of range or repeated");
    out.consistent = static_cast<std::uint8_t>(out.consistent | (1u << found));
    readings[found] = reading_from(m, problem);
    solver.add(answer != found);
  }
  solver.pop();
  return r != Check::kUnknown;
}

Solution Z3Solver::solve(const engine::Problem& problem) {
  Impl& im = *impl_;
  im.checks = 0;
  im.unknown_reason.clear();
  im.readings.fill(Reading{});
  Solution out;
  bool decided = false;
  try {
    decided = im.enumerate(problem, out);
  } catch (const z3::exception& e) {
    im.solver.reset();
    RAVE_CHECK(false, std::string("Z3 failed: ") + e.msg());
  }
  // Rank what Z3 proved consistent by the posterior (the heuristic's scores).
  const Solution ranked = im.ranker.solve(problem);
  bool any = false;
  for (int i = 0; i < 8; ++i) {
    const bool consistent = (out.consistent >> i) & 1u;
    out.log_score[i] = consistent ? ranked.log_score[i] : kNoScore;
    if (consistent && (!any || out.log_score[i] > out.log_score[out.answer])) out.answer = i, any = true;
  }
  if (!any) out.answer = ranked.answer;
  out.verdict = decided ? verdict_of(out.consistent) : Verdict::kUnknown;
  if (out.verdict == Verdict::kUnknown) out.reason = im.unknown_reason;
  if (out.verdict == Verdict::kNone) out.reason = ranked.reason.empty() ? "no candidate is consistent" : ranked.reason;
  return out;
}

}  // namespace rave::solver
