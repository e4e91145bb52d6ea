// Rule semantics as Z3 constraints (docs/rules.md), written from docs/rules.md independently of
// the heuristic's checks so that the two backends can be compared. Panels p[0..8] are row-major;
// p[8] is the 9th panel (the answer's terms).
#include "solver/z3/encoder.hpp"

#include <algorithm>
#include <set>

namespace rave::solver::z3enc {
namespace {

using engine::RuleAttr;
using engine::RuleName;

int floor_half(int x) { return x >= 0 ? x / 2 : -((-x + 1) / 2); }

}  // namespace

Encoder::Encoder(z3::context& ctx, const LayoutModel& model, const z3::expr& answer)
    : ctx_(ctx), answer_(answer), slots_(model.slots) {}

PanelTerms Encoder::known(const PanelView& v) const {
  auto common = [&](int a) { return Term::integer(v.common[a]); };
  auto by_slot = [&](int a) {
    return Term::bits(v.by_slot[a], 4 * slots_);
  };  // PanelView's packing
  return PanelTerms{Term::integer(v.count),
                    Term::bits(v.mask, slots_),
                    {common(0), common(1), common(2), common(3)},
                    {by_slot(0), by_slot(1), by_slot(2), by_slot(3)}};
}

PanelTerms Encoder::answer(const std::array<PanelView, 16>& panels) const {
  const z3::expr& answer = answer_;
  std::array<PanelTerms, 8> c{known(panels[8]),  known(panels[9]),  known(panels[10]),
                              known(panels[11]), known(panels[12]), known(panels[13]),
                              known(panels[14]), known(panels[15])};
  auto split = [&](auto field) {
    return Term::cases({field(c[0]), field(c[1]), field(c[2]), field(c[3]), field(c[4]),
                        field(c[5]), field(c[6]), field(c[7])},
                       answer);
  };
  PanelTerms t = c[0];
  t.count = split([](const PanelTerms& p) { return p.count; });
  t.mask = split([](const PanelTerms& p) { return p.mask; });
  for (int a = 0; a < 4; ++a) {
    t.common[a] = split([a](const PanelTerms& p) { return p.common[a]; });
    t.by_slot[a] = split([a](const PanelTerms& p) { return p.by_slot[a]; });
  }
  return t;
}

Term Encoder::rotate(const Term& bits, int by) {
  const int width = bits.width();
  return rotate_left(bits, ((by % width) + width) % width);
}

Term Encoder::latin(const std::array<Term, 9>& x) {
  const Term distinct = x[0] != x[1] && x[0] != x[2] && x[1] != x[2];
  const Term forward =
      x[3] == x[1] && x[4] == x[2] && x[5] == x[0] && x[6] == x[2] && x[7] == x[0] && x[8] == x[1];
  const Term backward =
      x[3] == x[2] && x[4] == x[0] && x[5] == x[1] && x[6] == x[1] && x[7] == x[2] && x[8] == x[0];
  return distinct && (forward || backward);
}

// Group 0 (docs/rules.md#number-and-position-rules): Number rules relate entity counts, Position
// rules relate slot sets; col1's count lies in the rule's narrowed range (docs/rules.md#narrowing).
Term Encoder::group0(const Hypothesis& h, const std::vector<PanelTerms>& p) const {
  const int v = h.rule.value;
  const bool number = h.rule.attr == RuleAttr::kNumber;
  if (h.rule.name == RuleName::kDistributeThree) return distribute_three_group0(h, p);
  Term all = Term::boolean(true);
  for (int r = 0; r < 3; ++r) {
    const PanelTerms &c1 = p[3 * r], &c2 = p[3 * r + 1], &c3 = p[3 * r + 2];
    const Term l1 = level(c1), l2 = level(c2), l3 = level(c3);
    all = all && in(l1, h.range);
    switch (h.rule.name) {
      case RuleName::kConstant: all = all && c2.mask == c1.mask && c3.mask == c1.mask; break;
      case RuleName::kProgression:
        if (number)
          all = all && l2 == l1 + v && l3 == l1 + 2 * v;
        else
          all = all && c2.mask == rotate(c1.mask, v) && c3.mask == rotate(c2.mask, v);
        break;
      case RuleName::kArithmetic:
        if (number) {
          // counts add: (l3 + 1) = (l1 + 1) +- (l2 + 1); col2 drawn below what keeps col3 in range
          const int orig_min = floor_half(h.range.min - 1);
          all = all && (v > 0 ? (l2 >= h.range.min && l2 <= h.range.min + h.range.max - l1 &&
                                 l3 == l1 + l2 + 1)
                              : (l2 >= orig_min && l2 <= l1 - orig_min - 1 && l3 == l1 - l2 - 1));
        } else {
          const Term gained = v > 0 ? (c2.mask & ~c1.mask) : (c1.mask & ~c2.mask);
          all = all && in(l2, h.range) && gained != Term::bits(0, slots_) &&
                c3.mask == (v > 0 ? (c1.mask | c2.mask) : (c1.mask & ~c2.mask));
        }
        break;
      case RuleName::kDistributeThree: break;
    }
  }
  return all;
}

// Distribute_Three Number (counts) or Position (slot sets of one count in all nine panels).
Term Encoder::distribute_three_group0(const Hypothesis& h, const std::vector<PanelTerms>& p) const {
  if (h.rule.attr == RuleAttr::kNumber) {
    const std::array<Term, 9> x{level(p[0]), level(p[1]), level(p[2]), level(p[3]), level(p[4]),
                                level(p[5]), level(p[6]), level(p[7]), level(p[8])};
    return latin(x) && in(x[0], h.range) && in(x[1], h.range) && in(x[2], h.range);
  }
  Term same_count = Term::boolean(true);
  for (int i = 1; i < 9; ++i) same_count = same_count && p[i].count == p[0].count;
  const std::array<Term, 9> m{p[0].mask, p[1].mask, p[2].mask, p[3].mask, p[4].mask,
                              p[5].mask, p[6].mask, p[7].mask, p[8].mask};
  return same_count && in(level(p[0]), h.range) && latin(m);
}

// Arithmetic Size on 1-based levels, Color on raw levels with the row-2 guard
// (docs/rules.md#type-size-and-color-rules).
Term Encoder::arithmetic_values(const Hypothesis& h, int attr,
                                const std::vector<PanelTerms>& p) const {
  const int sign = h.rule.value;
  const engine::Range r = h.range;
  const bool color = attr == kColor;
  const int lo =
      color ? (sign > 0 ? r.min : floor_half(r.min)) : (sign > 0 ? r.min : floor_half(r.min - 1));
  auto hi = [&](const Term& x1) -> Term {
    if (sign > 0) return r.min + r.max - x1;  // Size: (orig max = min + max + 1) - x1 - 1
    return color ? x1 : x1 - lo - 1;
  };
  Term all = Term::boolean(true);
  for (int row = 0; row < 3; ++row) {
    const Term x1 = p[3 * row].common[attr], x2 = p[3 * row + 1].common[attr],
               x3 = p[3 * row + 2].common[attr];
    const Term col3 =
        color ? (sign > 0 ? x1 + x2 : x1 - x2) : (sign > 0 ? x1 + x2 + 1 : x1 - x2 - 1);
    all = all && in(x1, r) && x2 >= lo && x2 <= hi(x1) && x3 == col3;
  }
  if (color) {
    // After a row-1 col2 of 0, row 2 may neither draw 0 nor start where only 0 can be drawn.
    const Term row2_col1 = p[3].common[attr], row2_col2 = p[4].common[attr];
    const Term only_zero = lo == 0 ? (hi(row2_col1) == 0) : Term::boolean(false);
    all = all && implies(p[1].common[attr] == 0, row2_col2 != 0 && !only_zero);
  }
  return all;
}

Term Encoder::values(const Hypothesis& h, int attr, const std::vector<PanelTerms>& p) const {
  Term all = Term::boolean(true);
  for (int i = 0; i < 9; ++i) all = all && p[i].common[attr] >= 0;  // one level per panel
  std::array<Term, 9> x{p[0].common[attr], p[1].common[attr], p[2].common[attr],
                        p[3].common[attr], p[4].common[attr], p[5].common[attr],
                        p[6].common[attr], p[7].common[attr], p[8].common[attr]};
  switch (h.rule.name) {
    case RuleName::kProgression:
      for (int r = 0; r < 3; ++r)
        all = all && in(x[3 * r], h.range) && x[3 * r + 1] == x[3 * r] + h.rule.value &&
              x[3 * r + 2] == x[3 * r] + 2 * h.rule.value;
      return all;
    case RuleName::kArithmetic: return all && arithmetic_values(h, attr, p);
    case RuleName::kDistributeThree:
      return all && latin(x) && in(x[0], h.range) && in(x[1], h.range) && in(x[2], h.range);
    case RuleName::kConstant: break;
  }
  return Term::boolean(false);
}

namespace {

// Distribute_Three Position (docs/rules.md): entity j of one slot set's position array moves to
// entry j of the next set's, with the same arrays in every row, and the picture shows only levels.
// So moves exist exactly when the three sets hold equal multisets of level triples (the levels an
// entity shows in rows 1, 2, 3). The panels are numerals per answer value: decided case by case.
bool moves_hold(int attr, int slots, const std::vector<PanelTerms>& p, int answer) {
  std::array<std::uint64_t, 3> sets{};
  std::array<std::array<int, 3>, 3> shown{
      {{-1, -1, -1}, {-1, -1, -1}, {-1, -1, -1}}};  // [set][row] -> panel
  for (int k = 0; k < 9; ++k) {
    const auto mask = static_cast<std::uint64_t>(p[k].mask.value_at(answer));
    if (k < 3) sets[k] = mask;
    const auto it = std::find(sets.begin(), sets.end(), mask);
    if (it == sets.end() || shown[it - sets.begin()][k / 3] >= 0) return false;
    shown[it - sets.begin()][k / 3] = k;
  }
  std::array<std::multiset<std::array<std::int64_t, 3>>, 3> triples;
  for (int x = 0; x < 3; ++x)
    for (int slot = 0; slot < slots; ++slot) {
      if (!((sets[x] >> slot) & 1u)) continue;
      std::array<std::int64_t, 3> t{};
      for (int r = 0; r < 3; ++r)
        t[r] = (p[shown[x][r]].by_slot[attr].value_at(answer) >> (4 * slot)) & 0xF;
      triples[x].insert(t);
    }
  return triples[0] == triples[1] && triples[1] == triples[2];
}

}  // namespace

Term Encoder::moves(int attr, const std::vector<PanelTerms>& p) const {
  std::array<Term, 8> holds{Term::boolean(false), Term::boolean(false), Term::boolean(false),
                            Term::boolean(false), Term::boolean(false), Term::boolean(false),
                            Term::boolean(false), Term::boolean(false)};
  for (int i = 0; i < 8; ++i) holds[i] = Term::boolean(moves_hold(attr, slots_, p, i));
  return Term::cases(holds, answer_);
}

Term Encoder::carry(Carry carry, int shift, bool uniform, int attr,
                    const std::vector<PanelTerms>& p) const {
  Term all = Term::boolean(true);
  if (!uniform && carry == Carry::kRegenerate) return all;
  for (int r = 0; r < 3; ++r) {
    const PanelTerms &c1 = p[3 * r], &c2 = p[3 * r + 1], &c3 = p[3 * r + 2];
    if (uniform) {
      all = all && c1.common[attr] >= 0 && c2.common[attr] == c1.common[attr] &&
            c3.common[attr] == c1.common[attr];
      continue;
    }
    switch (carry) {
      case Carry::kSlot:
        all = all && c2.by_slot[attr] == c1.by_slot[attr] && c3.by_slot[attr] == c1.by_slot[attr];
        break;
      case Carry::kShift:
        all = all && c2.by_slot[attr] == rotate(c1.by_slot[attr], 4 * shift) &&
              c3.by_slot[attr] == rotate(c2.by_slot[attr], 4 * shift);
        break;
      case Carry::kMove: return moves(attr, p);
      case Carry::kRegenerate: break;
    }
  }
  return all;
}

}  // namespace rave::solver::z3enc
