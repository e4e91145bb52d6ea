#include "solver/z3/term.hpp"

#include "common/error.hpp"

namespace rave::solver::z3enc {
namespace {

std::int64_t width_mask(int width) { return width >= 63 ? -1 : (std::int64_t{1} << width) - 1; }

}  // namespace

Term::Term(z3::expr e) : kind_(Kind::kExpr), expr_(std::move(e)) {
  if (expr_->is_bool()) {
    sort_ = Sort::kBool;
  } else if (expr_->is_bv()) {
    sort_ = Sort::kBitVec;
    width_ = static_cast<int>(expr_->get_sort().bv_size());
  }
}

Term Term::integer(std::int64_t v) { return Term(Sort::kInt, v, 0); }
Term Term::boolean(bool b) { return Term(Sort::kBool, b ? 1 : 0, 0); }
Term Term::bits(std::uint64_t v, int width) {
  return Term(Sort::kBitVec, static_cast<std::int64_t>(v) & width_mask(width), width);
}

std::int64_t Term::value_at(int answer) const {
  RAVE_CHECK(kind_ != Kind::kExpr && answer >= 0 && answer < 8,
             "a value per answer needs a folded term");
  return at(answer);
}

Term Term::from_values(Sort sort, int width, const Values& values, const z3::expr* answer) {
  Values v = values;
  if (sort == Sort::kBitVec)
    for (auto& x : v) x &= width_mask(width);
  if (sort == Sort::kBool)
    for (auto& x : v) x = x != 0;
  bool same = true;
  for (int i = 1; i < 8; ++i) same = same && v[i] == v[0];
  Term t(sort, v[0], width);
  if (same) return t;
  t.kind_ = Kind::kCases;
  t.cases_ = v;
  t.answer_ = answer;
  return t;
}

Term Term::cases(const std::array<Term, 8>& per_answer, const z3::expr& answer) {
  Values v;
  for (int i = 0; i < 8; ++i) {
    RAVE_CHECK(per_answer[i].is_constant(), "a case split holds constants");
    v[i] = per_answer[i].value_;
  }
  return from_values(per_answer[0].sort_, per_answer[0].width_, v, &answer);
}

z3::expr Term::to_expr(z3::context& ctx) const {
  auto numeral = [&](std::int64_t v) {
    switch (sort_) {
      case Sort::kInt: return ctx.int_val(static_cast<std::int64_t>(v));
      case Sort::kBool: return ctx.bool_val(v != 0);
      case Sort::kBitVec: break;
    }
    return ctx.bv_val(static_cast<std::uint64_t>(v), static_cast<unsigned>(width_));
  };
  switch (kind_) {
    case Kind::kExpr: return *expr_;
    case Kind::kConstant: return numeral(value_);
    case Kind::kCases: break;
  }
  if (sort_ == Sort::kBool) {  // the answer values where it holds
    z3::expr_vector holds(ctx);
    for (int i = 0; i < 8; ++i)
      if (cases_[i] != 0) holds.push_back(*answer_ == i);
    return z3::mk_or(holds);
  }
  z3::expr e = numeral(cases_[7]);
  for (int i = 6; i >= 0; --i) e = z3::ite(*answer_ == i, numeral(cases_[i]), e);
  return e;
}

z3::context& Term::context_of(const Term& a, const Term& b) {
  if (a.expr_) return a.expr_->ctx();
  if (b.expr_) return b.expr_->ctx();
  RAVE_CHECK(a.answer_ || b.answer_, "a Z3 context is needed only with an unknown");
  return (a.answer_ ? a.answer_ : b.answer_)->ctx();
}

// Value by value when neither side is a Z3 expression, else a Z3 term.
template <class Fold, class Build>
Term Term::apply(const Term& a, const Term& b, Sort sort, int width, Fold fold, Build build) {
  if (a.kind_ != Kind::kExpr && b.kind_ != Kind::kExpr) {
    if (a.is_constant() && b.is_constant()) {
      Values one{};
      one.fill(fold(a.value_, b.value_));
      return from_values(sort, width, one, nullptr);
    }
    Values v;
    for (int i = 0; i < 8; ++i) v[i] = fold(a.at(i), b.at(i));
    return from_values(sort, width, v, a.answer_ ? a.answer_ : b.answer_);
  }
  z3::context& ctx = context_of(a, b);
  return Term(build(a.to_expr(ctx), b.to_expr(ctx)));
}

using I = std::int64_t;
using E = const z3::expr&;
using S = Term::Sort;

Term operator+(const Term& a, const Term& b) {
  return Term::apply(
      a, b, S::kInt, 0, [](I x, I y) { return x + y; }, [](E x, E y) { return x + y; });
}
Term operator-(const Term& a, const Term& b) {
  return Term::apply(
      a, b, S::kInt, 0, [](I x, I y) { return x - y; }, [](E x, E y) { return x - y; });
}
Term operator==(const Term& a, const Term& b) {
  return Term::apply(
      a, b, S::kBool, 0, [](I x, I y) -> I { return x == y; }, [](E x, E y) { return x == y; });
}
Term operator!=(const Term& a, const Term& b) {
  return Term::apply(
      a, b, S::kBool, 0, [](I x, I y) -> I { return x != y; }, [](E x, E y) { return x != y; });
}
Term operator<=(const Term& a, const Term& b) {
  return Term::apply(
      a, b, S::kBool, 0, [](I x, I y) -> I { return x <= y; }, [](E x, E y) { return x <= y; });
}
Term operator>=(const Term& a, const Term& b) {
  return Term::apply(
      a, b, S::kBool, 0, [](I x, I y) -> I { return x >= y; }, [](E x, E y) { return x >= y; });
}
Term operator&(const Term& a, const Term& b) {
  return Term::apply(
      a, b, S::kBitVec, a.width_, [](I x, I y) { return x & y; }, [](E x, E y) { return x & y; });
}
Term operator|(const Term& a, const Term& b) {
  return Term::apply(
      a, b, S::kBitVec, a.width_, [](I x, I y) { return x | y; }, [](E x, E y) { return x | y; });
}

Term operator&&(const Term& a, const Term& b) {
  if (a.is_false() || b.is_false()) return Term::boolean(false);
  if (a.is_true()) return b;
  if (b.is_true()) return a;
  return Term::apply(
      a, b, S::kBool, 0, [](I x, I y) -> I { return x && y; }, [](E x, E y) { return x && y; });
}

Term operator||(const Term& a, const Term& b) {
  if (a.is_true() || b.is_true()) return Term::boolean(true);
  if (a.is_false()) return b;
  if (b.is_false()) return a;
  return Term::apply(
      a, b, S::kBool, 0, [](I x, I y) -> I { return x || y; }, [](E x, E y) { return x || y; });
}

Term implies(const Term& a, const Term& b) {
  if (a.is_false() || b.is_true()) return Term::boolean(true);
  if (a.is_true()) return b;
  if (b.is_false()) return !a;
  return Term::apply(
      a, b, S::kBool, 0, [](I x, I y) -> I { return !x || y; },
      [](E x, E y) { return z3::implies(x, y); });
}

Term operator!(const Term& a) {
  if (a.expr_) return Term(!*a.expr_);
  return Term::apply(
      a, Term::boolean(true), S::kBool, 0, [](I x, I) -> I { return !x; },
      [](E x, E) { return !x; });
}

Term operator~(const Term& a) {
  if (a.expr_) return Term(~*a.expr_);
  return Term::apply(
      a, a, S::kBitVec, a.width_, [](I x, I) { return ~x; }, [](E x, E) { return ~x; });
}

Term rotate_left(const Term& a, int k) {
  if (k == 0) return a;
  if (a.expr_) {
    z3::expr e = *a.expr_;
    return Term(e.rotate_left(static_cast<unsigned>(k)));
  }
  const int w = a.width_;
  auto rotate = [k, w](I x, I) {
    const auto v = static_cast<std::uint64_t>(x);
    return static_cast<I>((v << k) | (v >> (w - k)));
  };
  return Term::apply(a, a, S::kBitVec, w, rotate, [](E x, E) { return x; });
}

Term ite(const Term& c, const Term& t, const Term& e) {
  if (c.is_constant()) return c.value_ != 0 ? t : e;
  if (c.expr_ || t.expr_ || e.expr_) {
    z3::context& ctx = Term::context_of(c, t.expr_ ? t : e);
    return Term(z3::ite(c.to_expr(ctx), t.to_expr(ctx), e.to_expr(ctx)));
  }
  Term::Values v;
  for (int i = 0; i < 8; ++i) v[i] = c.at(i) != 0 ? t.at(i) : e.at(i);
  return Term::from_values(t.sort_, t.width_, v, c.answer_);
}

}  // namespace rave::solver::z3enc
