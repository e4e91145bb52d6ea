#include "solver/z3_backend.hpp"

#include <z3++.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "solver/abduction/fits.hpp"
#include "solver/abduction/panel_view.hpp"
#include "solver/grid/grid_fit.hpp"
#include "solver/grid/grid_solver.hpp"
#include "solver/z3/encoder.hpp"
#include "solver/z3/grid_decision.hpp"
#include "solver/z3/objective.hpp"

namespace rave::solver {
namespace {

using z3enc::carry_weights;
using z3enc::Encoder;
using z3enc::group0_weights;
using z3enc::Objective;
using z3enc::PanelTerms;
using z3enc::Term;
using z3enc::value_weights;

bool allowed_bit(HypothesisMask mask, std::size_t i) { return (mask >> i) & 1u; }

// The Z3 check outcome, with "unknown" kept as a value.
enum class Check { kSat, kUnsat, kUnknown };

Check to_check(z3::check_result r) {
  return r == z3::sat ? Check::kSat : r == z3::unsat ? Check::kUnsat : Check::kUnknown;
}

}  // namespace

// One component, prepared before anything of the problem is asserted: its panels as terms and
// what Occam allows (decided by ground evaluation, see structured_fits).
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

constexpr std::array<const char*, 4> kAttrNames{"Type", "Size", "Color", "Angle"};

struct Z3Solver::Impl {
  SolveOptions options;
  Z3Budget budget;
  mutable z3::context ctx;  // Z3 needs a non-const context to build terms, even for reading a model
  // One solver for the Impl's lifetime, used incrementally (push/pop per problem): creating a Z3
  // solver costs milliseconds, a scoped check on these formulas microseconds.
  z3::solver solver;
  z3::expr answer;  // the 9th panel is candidate `answer` (0..7)
  std::array<ComponentView, 2> views{};
  std::array<ComponentPlan, 2> plans{};
  int components = 0;
  std::array<Reading, 8> readings{};
  // Ranking (only when two or more candidates are consistent) asserts the problem once more with
  // these collected: the assertions for the optimiser and the log-posterior.
  bool collect = false;
  std::vector<z3::expr> asserted;
  Objective objective;
  int checks = 0;
  std::string unknown_reason;

  Solution solve_grid(const engine::Problem& problem);

  Impl(SolveOptions o, Z3Budget b)
      : options(o), budget(b), solver(ctx), answer(ctx.int_const("answer")) {
    solver.set(budget_params());
  }

  z3::params budget_params() {
    z3::params p(ctx);
    if (budget.rlimit != 0) p.set("rlimit", budget.rlimit);
    if (budget.timeout_ms != 0) p.set("timeout", budget.timeout_ms);
    return p;
  }

  // Asserts a folded term (true needs no assertion).
  void add(const Term& t) {
    if (t.is_true()) return;
    const z3::expr e = t.to_expr(ctx);
    solver.add(e);
    if (collect) asserted.push_back(e);
  }
  // Adds a weighted choice to the objective (weights computed only when collecting).
  template <class Weigh>
  void weigh(const Term& chosen, Weigh weights) {
    if (collect) objective.add(chosen, weights(), answer);
  }

  Check note(Check r, const std::string& why) {
    if (r == Check::kUnknown && unknown_reason.empty())
      unknown_reason = "Z3 stopped before deciding (rlimit " + std::to_string(budget.rlimit) +
                       ", timeout " + std::to_string(budget.timeout_ms) + " ms; 0 = none): " + why;
    return r;
  }
  Check check() {
    ++checks;
    const Check r = to_check(solver.check());
    return note(r, r == Check::kUnknown ? solver.reason_unknown() : "");
  }

  bool structured_fits(const Encoder& enc, const ComponentPlan& plan, int attr);
  void prepare(const engine::Problem& problem, int c);
  void assert_component(int c);
  void assert_usable_candidates(int c);
  std::vector<CarryGroup> assert_group0(int c, const Encoder& enc);
  void assert_angle(int c, const Encoder& enc, const std::vector<CarryGroup>& carries);
  void assert_attribute(int c, int a, const Encoder& enc, const std::vector<CarryGroup>& carries);
  bool enumerate(Solution& out);
  bool rank(Solution& out);
  std::string none_reason();
  std::string first_gap(int c);
  Reading reading_from(const z3::model& m) const;
};

// Occam (docs/solver.md#posterior): does some allowed non-Constant rule explain `attr` on the 8
// context panels for some level of the 9th? The context is all numerals, so each instance folds to
// true or false while it is built (no Z3 check is needed for this ground question).
bool Z3Solver::Impl::structured_fits(const Encoder& enc, const ComponentPlan& plan, int attr) {
  std::vector<PanelTerms> panels(plan.panels.begin(), plan.panels.begin() + 8);
  panels.push_back(plan.panels[0]);
  const auto& list = plan.model->entity[attr];
  const engine::Range levels = plan.model->ranges[attr];
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (!allowed_bit(plan.allowed.entity[attr], i) ||
        list[i].rule.name == engine::RuleName::kConstant)
      continue;
    for (int level = levels.min; level <= levels.max; ++level) {
      panels[8].common[attr] = Term::integer(level);
      const Term fits = enc.values(list[i], attr, panels);
      RAVE_CHECK(fits.is_constant(), "a rule on numerals folds to a constant");
      if (fits.is_true()) return true;
    }
  }
  return false;
}

// Component c's context and answer terms, and what Occam allows for its attributes.
void Z3Solver::Impl::prepare(const engine::Problem& problem, int c) {
  ComponentPlan& plan = plans[c] = ComponentPlan{};
  plan.model = &layout_model(problem.config, c);
  const LayoutModel& model = *plan.model;
  plan.allowed = allowed_in(problem, c, model, options.use_rules);
  const ComponentView& view = views[c];  // built by solve()
  for (int i = 0; i < 8; ++i) plan.context_usable = plan.context_usable && view.panels[i].count > 0;
  if (!plan.context_usable) return;
  const Encoder enc(ctx, model, answer);
  for (int i = 0; i < 8; ++i) plan.panels.push_back(enc.known(view.panels[i]));
  plan.panels.push_back(enc.answer(view.panels));
  bool regenerates = false;
  for (std::size_t k = 0; k < model.group0.size(); ++k)
    regenerates = regenerates || (allowed_bit(plan.allowed.group0, k) &&
                                  carry_of(model.group0[k].rule) == Carry::kRegenerate);
  if (!options.occam || !regenerates || view.uniform) return;
  for (int a = 0; a < kRuleAttrs; ++a) plan.noise_allowed[a] = !structured_fits(enc, plan, a);
}

// Asserts component c: one selector per rule group over its allowed hypotheses, each implying its
// rule on the nine panels; Constant and Angle read per the group-0 rule's carry (docs/rules.md).
void Z3Solver::Impl::assert_component(int c) {
  if (!plans[c].context_usable) {  // an unusable context panel: no rule explains anything
    add(Term::boolean(false));
    return;
  }
  assert_usable_candidates(c);
  const Encoder enc(ctx, *plans[c].model, answer);
  const std::vector<CarryGroup> carries = assert_group0(c, enc);
  assert_angle(c, enc, carries);
  for (int a = 0; a < kRuleAttrs; ++a) assert_attribute(c, a, enc, carries);
}

void Z3Solver::Impl::assert_usable_candidates(int c) {
  for (int i = 0; i < 8; ++i)
    if (views[c].panels[8 + i].count == 0) add(Term(answer != i));
}

// The Number/Position selector of component c; returns its hypotheses grouped by carry (the
// carry decides what Constant and Angle mean), so each carry's constraints are built once.
std::vector<CarryGroup> Z3Solver::Impl::assert_group0(int c, const Encoder& enc) {
  const ComponentPlan& plan = plans[c];
  const LayoutModel& model = *plan.model;
  const z3::expr g = ctx.int_const(("group0_" + std::to_string(c)).c_str());
  std::vector<CarryGroup> carries;
  Term some = Term::boolean(false);
  for (std::size_t k = 0; k < model.group0.size(); ++k) {
    if (!allowed_bit(plan.allowed.group0, k)) continue;
    const Term chosen(g == static_cast<int>(k));
    some = some || chosen;
    add(implies(chosen, enc.group0(model.group0[k], plan.panels)));
    weigh(chosen, [&] { return group0_weights(model, model.group0[k], views[c]); });
    const Carry carry = carry_of(model.group0[k].rule);
    const int shift = carry == Carry::kShift ? model.group0[k].rule.value : 0;
    auto it = std::find_if(carries.begin(), carries.end(), [&](const CarryGroup& cg) {
      return cg.carry == carry && cg.shift == shift;
    });
    if (it == carries.end())
      carries.push_back(CarryGroup{carry, shift, chosen});
    else
      it->chosen = it->chosen || chosen;
  }
  add(some);
  return carries;
}

// Angle, never ruled, read per carry (docs/rules.md); nothing when Angle plays no part.
void Z3Solver::Impl::assert_angle(int c, const Encoder& enc,
                                  const std::vector<CarryGroup>& carries) {
  if (!options.angle) return;
  const bool uniform = views[c].uniform;
  for (const CarryGroup& cg : carries) {
    add(implies(cg.chosen, enc.carry(cg.carry, cg.shift, uniform, kAngle, plans[c].panels)));
    const CarryKey key{cg.carry, cg.shift, uniform};
    weigh(cg.chosen,
          [&] { return carry_weights(key, 0.0, plans[c].model->ranges[kAngle], views[c]); });
  }
}

// The selector of attribute `a` of component c; Constant means what each carry makes of it, and
// noise is excluded where Occam says a structured rule explains the attribute.
void Z3Solver::Impl::assert_attribute(int c, int a, const Encoder& enc,
                                      const std::vector<CarryGroup>& carries) {
  const ComponentPlan& plan = plans[c];
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
      weigh(chosen, [&] { return value_weights(list[r], a, views[c]); });
      continue;
    }
    for (const CarryGroup& cg : carries) {
      const bool noise = !uniform && cg.carry == Carry::kRegenerate;
      const CarryKey key{cg.carry, cg.shift, uniform};
      weigh(chosen && cg.chosen,
            [&] { return carry_weights(key, list[r].log_prior, plan.model->ranges[a], views[c]); });
      if (noise && plan.noise_allowed[a]) continue;  // noise: no constraint
      const Term meaning =
          noise ? Term::boolean(false) : enc.carry(cg.carry, cg.shift, uniform, a, plan.panels);
      add(implies(chosen && cg.chosen, meaning));
    }
  }
  add(some);
}

Reading Z3Solver::Impl::reading_from(const z3::model& m) const {
  Reading r;
  for (int c = 0; c < components; ++c) {
    const LayoutModel& model = *plans[c].model;
    const std::string tag = std::to_string(c);
    auto value_of = [&](const std::string& name) {
      return m.eval(ctx.int_const(name.c_str()), true).get_numeral_int();
    };
    ComponentReading& out = r.components[c];
    out.component = c;
    const int g = value_of("group0_" + tag);
    out.rules[0] = model.group0[g].rule;
    for (int a = 0; a < kRuleAttrs; ++a) {
      const engine::Rule& rule =
          model.entity[a][value_of("rule_" + tag + "_" + std::to_string(a))].rule;
      out.rules[a + 1] = rule;
      out.noise[a] = rule.name == engine::RuleName::kConstant && !views[c].uniform &&
                     carry_of(out.rules[0]) == Carry::kRegenerate;
    }
  }
  r.count = components;
  return r;
}

Z3Solver::Z3Solver(SolveOptions options, Z3Budget budget)
    : impl_(std::make_unique<Impl>(options, budget)) {}
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
bool Z3Solver::Impl::enumerate(Solution& out) {
  solver.push();  // everything of this problem is popped below
  add(Term(answer >= 0 && answer <= 7));
  for (int c = 0; c < components; ++c) assert_component(c);
  Check r = check();
  for (; r == Check::kSat; r = check()) {
    const z3::model m = solver.get_model();
    const int found = m.eval(answer, true).get_numeral_int();
    RAVE_CHECK(found >= 0 && found < 8 && !((out.consistent >> found) & 1u),
               "Z3 answer out of range or repeated");
    out.consistent = static_cast<std::uint8_t>(out.consistent | (1u << found));
    readings[found] = reading_from(m);
    solver.add(answer != found);
  }
  solver.pop();
  return r != Check::kUnknown;
}

// Ranks the consistent candidates inside Z3: candidate i scores the largest log-posterior of a
// rule assignment with answer = i (an optimisation over the same assertions); its reading is that
// assignment. The answer is the best (lowest index on exact ties). False when a budget ran out.
bool Z3Solver::Impl::rank(Solution& out) {
  const int count = out.consistent_count();
  if (count == 0 ||
      (count == 1 && !options.score_unique)) {  // nothing to rank: none, or the one answer
    if (count == 1)
      out.answer = out.consistent_candidates().front(), out.log_score[*out.answer] = 0;
    return true;
  }
  collect = true;  // assert the problem again, collecting assertions and weights
  solver.push();
  add(Term(answer >= 0 && answer <= 7));
  for (int c = 0; c < components; ++c) assert_component(c);
  solver.pop();
  collect = false;
  const z3::expr total = objective.to_expr(ctx);
  std::int64_t best = 0;
  for (int i : out.consistent_candidates()) {
    z3::optimize opt(ctx);
    opt.set(budget_params());
    for (const z3::expr& e : asserted) opt.add(e);
    opt.add(answer == i);
    const z3::optimize::handle h = opt.maximize(total);
    ++checks;
    if (note(to_check(opt.check()), Z3_optimize_get_reason_unknown(ctx, opt)) != Check::kSat)
      return false;
    const std::int64_t value = opt.upper(h).get_numeral_int64();
    out.log_score[i] = Objective::nats(value);
    readings[i] = reading_from(opt.get_model());
    if (!out.answer || value > best) out.answer = i, best = value;
  }
  return true;
}

// Why no candidate is consistent: per component, the first rule group whose constraints (with
// the ones before it) no assignment and candidate satisfy.
std::string Z3Solver::Impl::none_reason() {
  for (int c = 0; c < components; ++c) {
    const std::string name(plans[c].model->name);
    if (!plans[c].context_usable) return name + ": a context panel cannot be read";
    solver.push();
    add(Term(answer >= 0 && answer <= 7));
    const std::string gap = first_gap(c);
    solver.pop();
    if (!gap.empty())
      return std::string(name).append(": no ").append(gap).append(
          " rule explains the context and a candidate");
  }
  return "no candidate is explained in every component";
}

std::string Z3Solver::Impl::first_gap(int c) {
  assert_usable_candidates(c);
  const Encoder enc(ctx, *plans[c].model, answer);
  const std::vector<CarryGroup> carries = assert_group0(c, enc);
  if (check() == Check::kUnsat) return "Number/Position";
  assert_angle(c, enc, carries);
  if (options.angle && check() == Check::kUnsat) return kAttrNames[kAngle];
  for (int a = 0; a < kRuleAttrs; ++a) {
    assert_attribute(c, a, enc, carries);
    if (check() == Check::kUnsat) return kAttrNames[a];
  }
  return {};
}

// N x N problems, wide values, value regimes: Z3 on the grid solver's rule checks.
Solution Z3Solver::Impl::solve_grid(const engine::Problem& problem) {
  std::vector<GridComponentFit> fits;
  for (int c = 0; c < components; ++c) fits.push_back(fit_grid_component(problem, c, options));
  try {
    z3enc::GridDecision d =
        z3enc::decide_grid(ctx, solver, budget_params(), fits, options.score_unique);
    readings = d.readings;
    checks = d.checks;
    return d.solution;
  } catch (const z3::exception& e) {
    RAVE_CHECK(false, std::string("Z3 failed: ") + e.msg());
  }
  return {};
}

Solution Z3Solver::solve(const engine::Problem& problem) {
  Impl& im = *impl_;
  im.checks = 0;
  im.unknown_reason.clear();
  im.readings.fill(Reading{});
  im.components = static_cast<int>(engine::configuration(problem.config).components.size());
  if (needs_grid_solver(problem)) return im.solve_grid(problem);
  im.asserted.clear();
  im.objective = Objective{};
  im.components = static_cast<int>(engine::configuration(problem.config).components.size());
  const LayoutModel* models[2] = {&layout_model(problem.config, 0), nullptr};
  if (im.components == 2) models[1] = &layout_model(problem.config, 1);
  build_views(problem, im.components, models, im.views.data(), im.options.angle);
  for (int c = 0; c < im.components; ++c) im.prepare(problem, c);
  Solution out;
  out.log_score.fill(kNoScore);
  try {
    bool decided = im.enumerate(out) && im.rank(out);
    out.verdict = decided ? verdict_of(out.consistent) : Verdict::kUnknown;
    if (out.verdict == Verdict::kNone) out.reason = im.none_reason();
  } catch (const z3::exception& e) {
    im.solver.reset();
    RAVE_CHECK(false, std::string("Z3 failed: ") + e.msg());
  }
  if (out.verdict == Verdict::kUnknown) out.reason = im.unknown_reason, out.answer.reset();
  return out;
}

}  // namespace rave::solver
