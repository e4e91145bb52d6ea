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
  return attr == RuleAttr::kType ? ranges.type : attr == RuleAttr::kSize ? ranges.size : ranges.color;
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
    : rule_(rule), member_(member_of(rule.attr)), range_(range_of(frame.ranges, rule.attr)) {
  RAVE_CHECK(rule.value_known, "sampling needs the rule's parameter");
  RAVE_CHECK(rule.name != RuleName::kArithmetic || rule.attr != RuleAttr::kType,
             "Arithmetic on Type is not a RAVEN rule");
}

void EntityRule::apply(ComponentPanel& reference, ComponentPanel& target, Rng& rng) {
  switch (rule_.name) {
    case RuleName::kConstant: return;  // target keeps what group 0 produced
    case RuleName::kProgression: return progression(reference, target);
    case RuleName::kArithmetic:
      if (rule_.attr == RuleAttr::kSize) return arithmetic_size(reference, target, rng);
      return arithmetic_color(reference, target, rng);
    case RuleName::kDistributeThree: return distribute_three(reference, target, rng);
  }
}

int EntityRule::level(const ComponentPanel& panel) const {
  RAVE_CHECK(!panel.entities.empty(), "a layout always holds at least one entity");
  return panel.entities.front().*member_;
}

void EntityRule::set_all(ComponentPanel& panel, int value) const {
  for (Entity& e : panel.entities) e.*member_ = value;
}

// L, L+v, L+2v per row; at col1 -> col2 a non-uniform col1 is first made consistent
// (docs/rules.md#type-size-and-color-rules).
void EntityRule::progression(ComponentPanel& reference, ComponentPanel& target) {
  const int l = level(reference);
  if (first_col_ && !is_uniform(reference)) set_all(reference, l);
  set_all(target, l + rule_.value);
  first_col_ = !first_col_;
}

// 1-based levels: (L3 + 1) = (L1 + 1) +- (L2 + 1); col2 drawn from the range recovered from the
// narrowed one (docs/rules.md#type-size-and-color-rules).
void EntityRule::arithmetic_size(ComponentPanel& reference, ComponentPanel& target, Rng& rng) {
  if (memory_) {
    const int l1 = *memory_;
    memory_.reset();
    const int l2 = level(reference);
    set_all(target, rule_.value > 0 ? l1 + l2 + 1 : l1 - l2 - 1);
    return;
  }
  const int l1 = level(reference);
  memory_ = l1;
  if (!is_uniform(reference)) set_all(reference, l1);
  Range col2 = range_;
  if (rule_.value > 0) {
    col2.max = (range_.min + range_.max + 1) - l1 - 1;
  } else {
    const int orig_min = floor_div(range_.min - 1, 2);
    col2 = Range{orig_min, l1 - orig_min - 1};
  }
  set_all(target, draw(col2, rng));
}

// Raw levels: L3 = L1 +- L2, white (0) the identity. Guard: if row 1's col2 was 0, row 2's col1 is
// redrawn when it leaves no non-zero col2 (+ at 9, - at 0) and row 2's col2 is redrawn when 0
// (docs/rules.md#type-size-and-color-rules). `color_calls_` counts the applications: 1 = row 1
// col2, 3 = row 2 col2.
void EntityRule::arithmetic_color(ComponentPanel& reference, ComponentPanel& target, Rng& rng) {
  ++color_calls_;
  if (memory_) {
    const int l1 = *memory_;
    memory_.reset();
    const int l2 = level(reference);
    set_all(target, rule_.value > 0 ? l1 + l2 : l1 - l2);
    return;
  }
  const bool guarded = color_calls_ == 3 && white_alarm_;
  int l1 = level(reference);
  bool reset = false;
  if (guarded && ((rule_.value > 0 && l1 == kDefaultColorRange.max) ||
                  (rule_.value < 0 && l1 == kDefaultColorRange.min))) {
    l1 = draw_other(range_, l1, rng);
    reset = true;
  }
  memory_ = l1;
  if (reset || !is_uniform(reference)) set_all(reference, l1);
  const Range col2 = rule_.value > 0 ? Range{range_.min, range_.min + range_.max - l1}
                                     : Range{floor_div(range_.min, 2), l1};
  int l2 = draw(col2, rng);
  if (color_calls_ == 1) white_alarm_ = l2 == 0;
  if (guarded && l2 == 0) l2 = draw_other(col2, 0, rng);
  set_all(target, l2);
}

// Three distinct levels drawn from the narrowed range (not anchored on col1), rows are the
// Latin-square rotations; col1 and col2 written at col1 -> col2, col3 at col2 -> col3
// (docs/rules.md#type-size-and-color-rules).
void EntityRule::distribute_three(ComponentPanel& reference, ComponentPanel& target, Rng& rng) {
  if (count_ == 0) {
    RAVE_CHECK(range_.size() >= 3, "D3: fewer than three levels");
    const std::vector<int> picks = rng.sample(range_.size(), 3);
    for (std::size_t i = 0; i < 3; ++i) d3_values_[i] = range_.min + picks[i];
    rows_ = sample_latin_rows(rng);
  }
  const auto& row = rows_[static_cast<std::size_t>(count_ / 2)];
  auto value = [&](int col) { return d3_values_[static_cast<std::size_t>(row[static_cast<std::size_t>(col)])]; };
  if (count_ % 2 == 0) {
    set_all(reference, value(0));
    set_all(target, value(1));
  } else {
    set_all(target, value(2));
  }
  count_ = (count_ + 1) % 6;
}

}  // namespace rave::engine::internal
