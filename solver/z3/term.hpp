#pragma once
// A Z3 term that evaluates what it can while the formula is built. A term is one of
//  - a constant (integer, Boolean or bit-vector numeral): context panels are constants;
//  - a case split on the answer variable: one constant per answer value 0..7 (the 9th panel's
//    attributes are the candidates' values, i.e. the term ite(answer = 0, v0, ite(answer = 1,
//    ...)));
//  - a Z3 expression (selectors, free levels).
// Operations on constants and case splits are computed value by value, so the ground part of each
// rule folds to true or false and a rule's condition on the 9th panel becomes "answer in S" before
// Z3 sees it; anything involving a Z3 expression is built as Z3 terms. This is partial evaluation
// of one formula, not a second implementation of the rules: the encoder writes each rule once.
//
//   Term a = Term::integer(3);
//   Term x = Term::cases({1, 3, 3, 0, 0, 0, 0, 0}, answer);    // the 9th panel's level
//   Term fits = x == a;                                        // answer in {1, 2}
//   solver.add(implies(Term(selector), fits).to_expr(ctx));
#include <z3++.h>

#include <array>
#include <cstdint>
#include <optional>

namespace rave::solver::z3enc {

class Term {
 public:
  enum class Sort { kInt, kBool, kBitVec };

  /// A Z3 expression (an unknown such as a selector or a free level).
  explicit Term(z3::expr e);
  static Term integer(std::int64_t v);
  static Term boolean(bool b);
  static Term bits(std::uint64_t v, int width);
  /// One constant per answer value; `answer` must outlive the term. All cases share one sort.
  static Term cases(const std::array<Term, 8>& per_answer, const z3::expr& answer);

  bool is_constant() const { return kind_ == Kind::kConstant; }
  bool is_true() const { return is_constant() && sort_ == Sort::kBool && value_ != 0; }
  bool is_false() const { return is_constant() && sort_ == Sort::kBool && value_ == 0; }
  Sort sort() const { return sort_; }
  /// The value when the answer is `answer` (0..7); a constant has one value, a Z3 expression none.
  std::int64_t value_at(int answer) const;
  int width() const { return width_; }
  /// The Z3 expression (numerals made in `ctx`; a case split as an ite chain, or for a Boolean as
  /// the disjunction of the answer values where it holds).
  z3::expr to_expr(z3::context& ctx) const;

  friend Term operator+(const Term& a, const Term& b);
  friend Term operator-(const Term& a, const Term& b);
  friend Term operator==(const Term& a, const Term& b);
  friend Term operator!=(const Term& a, const Term& b);
  friend Term operator<=(const Term& a, const Term& b);
  friend Term operator>=(const Term& a, const Term& b);
  friend Term operator&&(const Term& a, const Term& b);
  friend Term operator||(const Term& a, const Term& b);
  friend Term operator!(const Term& a);
  friend Term operator&(const Term& a, const Term& b);  ///< bit-vectors
  friend Term operator|(const Term& a, const Term& b);
  friend Term operator~(const Term& a);
  friend Term implies(const Term& a, const Term& b);
  /// Bit-vector rotation by `k` bits towards the high end (k in [0, width)).
  friend Term rotate_left(const Term& a, int k);
  /// if c then t else e.
  friend Term ite(const Term& c, const Term& t, const Term& e);

 private:
  enum class Kind { kConstant, kCases, kExpr };
  using Values = std::array<std::int64_t, 8>;
  Term(Sort sort, std::int64_t value, int width) : sort_(sort), value_(value), width_(width) {}
  std::int64_t at(int i) const { return kind_ == Kind::kCases ? cases_[i] : value_; }
  static Term from_values(Sort sort, int width, const Values& values, const z3::expr* answer);
  template <class Fold, class Build>
  static Term apply(const Term& a, const Term& b, Sort sort, int width, Fold fold, Build build);
  static z3::context& context_of(const Term& a, const Term& b);

  Kind kind_ = Kind::kConstant;
  Sort sort_ = Sort::kInt;
  std::int64_t value_ = 0;
  int width_ = 0;
  Values cases_{};
  const z3::expr* answer_ = nullptr;
  std::optional<z3::expr> expr_;
};

inline Term operator+(const Term& a, int b) { return a + Term::integer(b); }
inline Term operator-(const Term& a, int b) { return a - Term::integer(b); }
inline Term operator-(int a, const Term& b) { return Term::integer(a) - b; }
inline Term operator==(const Term& a, int b) { return a == Term::integer(b); }
inline Term operator!=(const Term& a, int b) { return a != Term::integer(b); }
inline Term operator<=(const Term& a, int b) { return a <= Term::integer(b); }
inline Term operator>=(const Term& a, int b) { return a >= Term::integer(b); }

}  // namespace rave::solver::z3enc
