#include "solver/z3/grid_decision.hpp"

#include <cmath>
#include <string>

namespace rave::solver::z3enc {
namespace {

constexpr double kUnitsPerNat = 1e6;  // the objective in integer micro-nats

// The selectors of one component: its Number/Position hypothesis and one per entity attribute.
struct Selectors {
  z3::expr group0;
  std::array<z3::expr, kGridAttrs> attrs;
};

z3::expr answer_in(z3::context& ctx, const z3::expr& answer, std::uint8_t set) {
  z3::expr_vector any(ctx);
  for (int i = 0; i < engine::kCandidates; ++i)
    if ((set >> i & 1u) != 0) any.push_back(answer == i);
  return any.empty() ? ctx.bool_val(false) : z3::mk_or(any);
}

std::size_t attr_choices(const GridComponentFit& fit, std::size_t a) {
  std::size_t n = 0;
  for (const GridGroup0Fit& f : fit.group0) n = std::max(n, f.attrs[a].size());
  return n;
}

// Component c's selectors and constraints.
Selectors encode(z3::context& ctx, const z3::expr& answer, const GridComponentFit& fit, int c,
                 z3::expr_vector& out) {
  const std::string id = std::to_string(c);
  Selectors s{ctx.int_const(("group0_" + id).c_str()),
              {ctx.int_const(("type_" + id).c_str()), ctx.int_const(("size_" + id).c_str()),
               ctx.int_const(("color_" + id).c_str())}};
  out.push_back(s.group0 >= 0 && s.group0 < static_cast<int>(fit.group0.size()));
  for (std::size_t a = 0; a < s.attrs.size(); ++a)
    out.push_back(s.attrs[a] >= 0 && s.attrs[a] < static_cast<int>(attr_choices(fit, a)));
  for (std::size_t j = 0; j < fit.group0.size(); ++j) {
    const GridGroup0Fit& f = fit.group0[j];
    z3::expr holds = answer_in(ctx, answer, f.holds);
    for (std::size_t a = 0; a < f.attrs.size(); ++a) {
      z3::expr_vector some(ctx);
      for (std::size_t k = 0; k < f.attrs[a].size(); ++k)
        if (f.attrs[a][k].holds != 0)
          some.push_back(s.attrs[a] == static_cast<int>(k) &&
                         answer_in(ctx, answer, f.attrs[a][k].holds));
      holds = holds && (some.empty() ? ctx.bool_val(false) : z3::mk_or(some));
    }
    out.push_back(z3::implies(s.group0 == static_cast<int>(j), holds));
  }
  return s;
}

z3::expr units(z3::context& ctx, double nats) {
  return ctx.int_val(static_cast<std::int64_t>(std::llround(nats * kUnitsPerNat)));
}

// The log-posterior of the chosen reading with candidate i last, in micro-nats.
z3::expr objective(z3::context& ctx, const std::vector<GridComponentFit>& fits,
                   const std::vector<Selectors>& sel, int i) {
  const auto at = static_cast<std::size_t>(i);
  z3::expr sum = ctx.int_val(0);
  for (std::size_t c = 0; c < fits.size(); ++c)
    for (std::size_t j = 0; j < fits[c].group0.size(); ++j) {
      const GridGroup0Fit& f = fits[c].group0[j];
      if ((f.holds >> i & 1u) == 0) continue;
      const z3::expr chosen = sel[c].group0 == static_cast<int>(j);
      sum = sum + z3::ite(chosen, units(ctx, f.log_prior + f.log_lik[at]), ctx.int_val(0));
      for (std::size_t a = 0; a < f.attrs.size(); ++a)
        for (std::size_t k = 0; k < f.attrs[a].size(); ++k) {
          const GridEntityFit& e = f.attrs[a][k];
          if ((e.holds >> i & 1u) == 0) continue;
          sum = sum + z3::ite(chosen && sel[c].attrs[a] == static_cast<int>(k),
                              units(ctx, e.log_prior + e.log_lik[at]), ctx.int_val(0));
        }
    }
  return sum;
}

// The reading a model chose.
Reading reading_of(const z3::model& m, const std::vector<GridComponentFit>& fits,
                   const std::vector<Selectors>& sel) {
  Reading r;
  for (std::size_t c = 0; c < fits.size(); ++c) {
    const auto j = static_cast<std::size_t>(m.eval(sel[c].group0, true).get_numeral_int());
    const GridGroup0Fit& f = fits[c].group0.at(j);
    ComponentReading& cr = r.components[c];
    cr.component = static_cast<int>(c);
    cr.rules[0] = f.rule;
    for (std::size_t a = 0; a < f.attrs.size(); ++a) {
      const auto k = static_cast<std::size_t>(m.eval(sel[c].attrs[a], true).get_numeral_int());
      cr.rules[a + 1] = f.attrs[a].at(k).rule;
      cr.noise[a] = f.attrs[a].at(k).noise;
    }
  }
  r.count = static_cast<int>(fits.size());
  return r;
}

}  // namespace

GridDecision decide_grid(z3::context& ctx, z3::solver& solver, const z3::params& budget,
                         const std::vector<GridComponentFit>& fits, bool score_unique) {
  GridDecision d;
  Solution& s = d.solution;
  s.log_score.fill(kNoScore);
  const z3::expr answer = ctx.int_const("answer");
  z3::expr_vector constraints(ctx);
  constraints.push_back(answer >= 0 && answer < engine::kCandidates);
  std::vector<Selectors> sel;
  for (std::size_t c = 0; c < fits.size(); ++c)
    sel.push_back(encode(ctx, answer, fits[c], static_cast<int>(c), constraints));
  solver.push();  // the caller's solver, reused (creating one costs milliseconds)
  solver.add(constraints);
  for (;;) {  // enumerate: each answer found is blocked and Z3 asked again
    ++d.checks;
    const z3::check_result r = solver.check();
    if (r == z3::unsat) break;
    if (r == z3::unknown) {
      s.verdict = Verdict::kUnknown;
      s.reason = "Z3 stopped before deciding: " + solver.reason_unknown();
      solver.pop();
      return d;
    }
    const int a = solver.get_model().eval(answer, true).get_numeral_int();
    s.consistent |= static_cast<std::uint8_t>(1u << a);
    d.readings[static_cast<std::size_t>(a)] = reading_of(solver.get_model(), fits, sel);
    s.log_score[static_cast<std::size_t>(a)] = 0;
    solver.add(answer != a);
  }
  solver.pop();
  s.verdict = verdict_of(s.consistent);
  if (s.verdict == Verdict::kNone)
    s.reason = "no candidate completes rules that hold on every row of the matrix";
  const bool rank =
      s.verdict == Verdict::kAmbiguous || (s.verdict == Verdict::kUnique && score_unique);
  for (int i = 0; i < engine::kCandidates && rank; ++i) {
    if ((s.consistent >> i & 1u) == 0) continue;
    z3::optimize opt(ctx);
    opt.set(budget);
    opt.add(constraints);
    opt.add(answer == i);
    const z3::optimize::handle h = opt.maximize(objective(ctx, fits, sel, i));
    ++d.checks;
    if (opt.check() != z3::sat) {
      s.verdict = Verdict::kUnknown;
      s.reason = "Z3's optimiser stopped before ranking candidate " + std::to_string(i);
      return d;
    }
    s.log_score[static_cast<std::size_t>(i)] =
        static_cast<double>(opt.upper(h).get_numeral_int64()) / kUnitsPerNat;
    d.readings[static_cast<std::size_t>(i)] = reading_of(opt.get_model(), fits, sel);
  }
  for (int i = 0; i < engine::kCandidates; ++i)
    if ((s.consistent >> i & 1u) != 0 &&
        (!s.answer || s.log_score[static_cast<std::size_t>(i)] >
                          s.log_score[static_cast<std::size_t>(*s.answer)]))
      s.answer = i;
  return d;
}

}  // namespace rave::solver::z3enc
