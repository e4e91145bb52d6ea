#include "engine/rules/internal/entity_rules.hpp"

#include "common/error.hpp"
#include "common/math.hpp"

namespace rave::engine::internal {
namespace {

int Entity::*member_of(RuleAttr attr) {
  switch (attr) {
    case RuleAttr::kType: return &Entity::type;
    case RuleAttr::kSize: return &Entity::size;
    case RuleAttr::kColor: return &Entity::color;
    default: RAVE_CHECK(false, "an entity rule governs Type, Size or Color");
  }
  return nullptr;
}

Range range_of(const LayoutConstraints& ranges, RuleAttr attr) {
  return attr == RuleAttr::kType   ? ranges.type
         : attr == RuleAttr::kSize ? ranges.size
                                   : ranges.color;
}

int draw(const Range& range, Rng& rng) {
  RAVE_CHECK(!range.empty(), "entity rule: empty range");
  return rng.uniform_int(range.min, range.max);
}

// Uniform over range minus {excluded} (the original's sample_new without history).
int draw_other(const Range& range, int excluded, Rng& rng) {
  if (!range.contains(excluded)) return draw(range, rng);
  RAVE_CHECK(range.size() >= 2, "entity rule: no other level to draw");
  const int level = rng.uniform_int(range.min, range.max - 1);
  return level >= excluded ? level + 1 : level;
}

}  // namespace

EntityRule::EntityRule(const Rule& rule, const ComponentFrame& frame)
    : rule_(rule),
      member_(member_of(rule.attr)),
      range_(range_of(frame.ranges, rule.attr)),
      original_(range_of(frame.original, rule.attr)),
      grid_(frame.grid),
      unit_(rule.attr == RuleAttr::kColor ? 0 : 1) {
  RAVE_CHECK(rule.value_known, "sampling needs the rule's parameter");
  RAVE_CHECK(rule.name != RuleName::kArithmetic || rule.attr != RuleAttr::kType,
             "Arithmetic on Type is not a RAVEN rule");
}

void EntityRule::apply(ComponentPanel& reference, ComponentPanel& target, Rng& rng) {
  const int row = step_ / (grid_ - 1);
  const int col = step_ % (grid_ - 1);  // 0: col1 -> col2, ..., N-2: col(N-1) -> colN
  step_ = (step_ + 1) % (grid_ * (grid_ - 1));
  switch (rule_.name) {
    case RuleName::kConstant: return;  // target keeps what group 0 produced
    case RuleName::kProgression: return progression(reference, target, col);
    case RuleName::kArithmetic: return arithmetic(reference, target, row, col, rng);
    case RuleName::kDistributeThree: return distribute(reference, target, row, col, rng);
  }
}

int EntityRule::level(const ComponentPanel& panel) const {
  RAVE_CHECK(!panel.entities.empty(), "a layout always holds at least one entity");
  return panel.entities.front().*member_;
}

void EntityRule::set_all(ComponentPanel& panel, int value) const {
  for (Entity& e : panel.entities) e.*member_ = value;
}

// L, L+v, ..., L+(N-1)v per row; at col1 -> col2 a non-uniform col1 is first made consistent
// (spec 6.3).
void EntityRule::progression(ComponentPanel& reference, ComponentPanel& target, int col) const {
  const int l = level(reference);
  if (col == 0 && !is_uniform(reference)) set_all(reference, l);
  set_all(target, l + rule_.value);
}

// The last column is the sum (+) or difference (-) of the row's first N-1, on 1-based levels for
// Size ((L + 1) terms) and raw levels for Color (spec 6.3 at N = 3). `sum_` holds col1's term and
// then adds (or subtracts) each later column's term as it becomes the reference; the middle columns
// are drawn so that the result stays in the original range (docs/variants.md).
void EntityRule::arithmetic(ComponentPanel& reference, ComponentPanel& target, int row, int col,
                            Rng& rng) {
  const int sign = rule_.value > 0 ? 1 : -1;
  if (col == 0)
    sum_ = first_operand(reference, row, col, rng) + unit_;
  else
    sum_ += sign * (level(reference) + unit_);
  if (col == grid_ - 2) {
    set_all(target, sum_ - unit_);
    return;
  }
  set_all(target, draw_operand(row, col, rng));
}

// col1's level, made the value of every col1 entity when the layout is non-uniform. Color's guard
// (spec 6.3): if row 1's middle columns were all 0 (+ and - would look alike), row 2's col1 is
// redrawn when it leaves no non-zero operand (+ at the top level, - at the bottom).
int EntityRule::first_operand(ComponentPanel& reference, int row, int col, Rng& rng) {
  int l1 = level(reference);
  bool reset = false;
  if (unit_ == 0 && row == 1 && col == 0 && white_alarm_ &&
      ((rule_.value > 0 && l1 == original_.max) || (rule_.value < 0 && l1 == original_.min))) {
    l1 = draw_other(range_, l1, rng);
    reset = true;
  }
  if (reset || !is_uniform(reference)) set_all(reference, l1);
  return l1;
}

// A middle column's level: at least the original minimum, at most what leaves every later middle
// column its minimum and the result inside the original range. Color's guard redraws a 0 in row
// 2's col2 after the alarm; row 1 sets the alarm when all its middle columns are 0.
int EntityRule::draw_operand(int row, int col, Rng& rng) {
  const int later = grid_ - 3 - col;  // middle columns after this one
  const int term_min = original_.min + unit_;
  const int high = rule_.value > 0 ? original_.max - sum_ - later * term_min
                                   : sum_ - 2 * unit_ - original_.min - later * term_min;
  const Range operand{original_.min, high};
  int l = draw(operand, rng);
  if (unit_ == 0 && row == 1 && col == 0 && white_alarm_ && l == 0) l = draw_other(operand, 0, rng);
  if (unit_ == 0 && row == 0) white_alarm_ = (col == 0 || white_alarm_) && l == 0;
  return l;
}

// N distinct levels drawn from the narrowed range (not anchored on col1), rows are cyclic shifts;
// col1 and col2 written at col1 -> col2, each later column at its own step (spec 6.3 at N = 3).
void EntityRule::distribute(ComponentPanel& reference, ComponentPanel& target, int row, int col,
                            Rng& rng) {
  if (row == 0 && col == 0) {
    RAVE_CHECK(range_.size() >= grid_, "Distribute_N: fewer than N levels");
    const std::vector<int> picks = rng.sample(range_.size(), grid_);
    values_.resize(picks.size());
    for (std::size_t i = 0; i < picks.size(); ++i) values_[i] = range_.min + picks[i];
    rows_ = sample_row_shifts(grid_, rng);
  }
  if (col == 0) set_all(reference, values_[rows_.at(row, 0)]);
  set_all(target, values_[rows_.at(row, col + 1)]);
}

}  // namespace rave::engine::internal
