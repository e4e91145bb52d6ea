#include "engine/rules/internal/number_position_rules.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include "common/error.hpp"
#include "common/math.hpp"

namespace rave::engine::internal {
namespace {

// Python's modulo (non-negative for a positive divisor).
int wrap(int i, int n) { return ((i % n) + n) % n; }

const Entity& first_entity(const ComponentPanel& panel) {
  RAVE_CHECK(!panel.entities.empty(), "a layout always holds at least one entity");
  return panel.entities.front();
}

}  // namespace

NumberPositionRule::NumberPositionRule(const Rule& rule, const ComponentFrame& frame)
    : rule_(rule), frame_(frame) {
  RAVE_CHECK(rule.value_known, "sampling needs the rule's parameter");
}

ComponentPanel NumberPositionRule::apply(ComponentPanel& reference, Rng& rng) {
  const bool on_number = rule_.attr == RuleAttr::kNumber;
  switch (rule_.name) {
    case RuleName::kConstant: return reference;
    case RuleName::kProgression: return progression(reference, rng);
    case RuleName::kArithmetic:
      return on_number ? arithmetic_number(reference, rng) : arithmetic_position(reference, rng);
    case RuleName::kDistributeThree:
      return on_number ? distribute_number(reference, rng) : distribute_position(reference, rng);
  }
  RAVE_CHECK(false, "unknown rule");
  return reference;
}

// Number: level + v, entities regenerated. Position: every slot i -> (i + v) mod slot count, same
// order, entities keep their values (docs/rules.md#number-and-position-rules,
// docs/solver.md#details-that-decide).
ComponentPanel NumberPositionRule::progression(const ComponentPanel& reference, Rng& rng) const {
  ComponentPanel target = reference;
  if (rule_.attr == RuleAttr::kNumber) {
    const int count = reference.number_level() + rule_.value + 1;
    regenerate_entities(target, first_entity(reference), count, frame_, rng);
    return target;
  }
  for (Entity& e : target.entities) e.slot = wrap(e.slot + rule_.value, frame_.slot_count);
  return target;
}

// col2: Number drawn in [orig min, ...] ranges recovered from the narrowed range
// (docs/rules.md#number-and-position-rules); col3: counts (not levels) added or subtracted.
ComponentPanel NumberPositionRule::arithmetic_number(const ComponentPanel& reference, Rng& rng) {
  ComponentPanel target = reference;
  int count = 0;
  if (number_memory_) {
    const int first_count = *number_memory_ + 1;
    number_memory_.reset();
    const int second_count = static_cast<int>(reference.entities.size());
    count = rule_.value > 0 ? first_count + second_count : first_count - second_count;
  } else {
    const int l1 = reference.number_level();
    number_memory_ = l1;
    const Range& narrowed = frame_.ranges.number;
    Range col2 = narrowed;
    if (rule_.value > 0) {
      col2.max = (narrowed.min + narrowed.max + 1) - l1 - 1;
    } else {
      const int orig_min = floor_div(narrowed.min - 1, 2);
      col2 = Range{orig_min, l1 - orig_min - 1};
    }
    RAVE_CHECK(!col2.empty(), "Arithmetic Number: empty col2 range");
    count = rng.uniform_int(col2.min, col2.max) + 1;
  }
  regenerate_entities(target, first_entity(reference), count, frame_, rng);
  return target;
}

// col2: redraw Number and slots until union (+) adds a slot / difference (-) removes one;
// col3: the set operation, slots in ascending order (docs/rules.md#number-and-position-rules).
ComponentPanel NumberPositionRule::arithmetic_position(const ComponentPanel& reference, Rng& rng) {
  ComponentPanel target = reference;
  const std::vector<int> current = slots_of(reference);
  std::vector<int> slots;
  if (position_memory_) {
    std::vector<int> first = std::move(*position_memory_);
    position_memory_.reset();
    std::vector<int> second = current;
    std::sort(first.begin(), first.end());
    std::sort(second.begin(), second.end());
    if (rule_.value > 0)
      std::set_union(first.begin(), first.end(), second.begin(), second.end(), std::back_inserter(slots));
    else
      std::set_difference(first.begin(), first.end(), second.begin(), second.end(),
                          std::back_inserter(slots));
    RAVE_CHECK(!slots.empty(), "Arithmetic Position: empty col3");
  } else {
    position_memory_ = current;
    for (int tries = 0;; ++tries) {
      RAVE_CHECK(tries < kMaxRedraws, "Arithmetic Position: col2 redraw did not terminate");
      const int count = rng.uniform_int(frame_.ranges.number.min, frame_.ranges.number.max) + 1;
      slots = sample_slots(frame_.slot_count, count, rng);
      if (rule_.value > 0 ? !is_subset(slots, current) : !is_subset(current, slots)) break;
    }
  }
  place_regenerated(target, first_entity(reference), slots, frame_, rng);
  return target;
}

// Three Number levels anchored on row-1 col1; rows 2-3 rewrite and resample col1
// (docs/rules.md#number-and-position-rules).
ComponentPanel NumberPositionRule::distribute_number(ComponentPanel& reference, Rng& rng) {
  const int row = count_ / 2;
  const int col = count_ % 2;
  int level = 0;
  if (count_ == 0) {
    const Range& range = frame_.ranges.number;
    const int anchor = reference.number_level();
    RAVE_CHECK(range.contains(anchor) && range.size() >= 3, "D3 Number: range too small");
    const std::vector<int> picks = rng.sample(range.size() - 1, 2);  // levels other than anchor
    d3_levels_[0] = anchor;
    for (std::size_t i = 0; i < 2; ++i) {
      const int level_i = range.min + picks[i];
      d3_levels_[i + 1] = level_i >= anchor ? level_i + 1 : level_i;
    }
    rows_ = sample_latin_rows(rng);
    level = d3_level(0, 1);
  } else if (col == 0) {
    resample_layout_with_number(reference, d3_level(row, 0), frame_, rng);
    level = d3_level(row, 1);
  } else {
    level = d3_level(row, 2);
  }
  ComponentPanel target = reference;
  regenerate_entities(target, first_entity(reference), level + 1, frame_, rng);
  count_ = (count_ + 1) % 6;
  return target;
}

// Three slot sets of the row-1 count anchored on row-1 col1; entities keep their values and only
// move; rows 2-3 resample col1 at that count, then place it on the row's first set
// (docs/rules.md#number-and-position-rules).
ComponentPanel NumberPositionRule::distribute_position(ComponentPanel& reference, Rng& rng) {
  const int row = count_ / 2;
  const int col = count_ % 2;
  if (count_ == 0) {
    d3_sets_[0] = slots_of(reference);
    const int count = static_cast<int>(d3_sets_[0].size());
    d3_sets_[1] = draw_other_set(count, std::span(d3_sets_).first(1), rng);
    d3_sets_[2] = draw_other_set(count, std::span(d3_sets_).first(2), rng);
    rows_ = sample_latin_rows(rng);
  } else if (col == 0) {
    const int count = static_cast<int>(d3_sets_[0].size());
    resample_layout_with_number(reference, count - 1, frame_, rng);
    move_entities(reference, d3_set(row, 0));
  }
  ComponentPanel target = reference;
  move_entities(target, d3_set(row, col + 1));
  count_ = (count_ + 1) % 6;
  return target;
}

std::vector<int> NumberPositionRule::draw_other_set(int count, std::span<const std::vector<int>> taken,
                                                    Rng& rng) const {
  for (int tries = 0; tries < kMaxRedraws; ++tries) {
    std::vector<int> slots = sample_slots(frame_.slot_count, count, rng);
    const bool fresh = std::none_of(taken.begin(), taken.end(),
                                    [&](const std::vector<int>& t) { return same_set(slots, t); });
    if (fresh) return slots;
  }
  RAVE_CHECK(false, "D3 Position: no new slot set of size " + std::to_string(count));
  return {};
}

}  // namespace rave::engine::internal
