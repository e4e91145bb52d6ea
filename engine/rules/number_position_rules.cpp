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
  const int n = frame_.grid;
  const int row = step_ / (n - 1);
  const int col = step_ % (n - 1);  // 0: col1 -> col2, ..., N-2: col(N-1) -> colN
  step_ = (step_ + 1) % (n * (n - 1));
  const bool on_number = rule_.attr == RuleAttr::kNumber;
  switch (rule_.name) {
    case RuleName::kConstant: return reference;
    case RuleName::kProgression: return progression(reference, rng);
    case RuleName::kArithmetic:
      return on_number ? arithmetic_number(reference, col, rng)
                       : arithmetic_position(reference, col, rng);
    case RuleName::kDistributeThree:
      return on_number ? distribute_number(reference, row, col, rng)
                       : distribute_position(reference, row, col, rng);
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

// The last column's count is the sum (+) or difference (-) of the row's first N-1 counts; each
// middle column's count is drawn from the original minimum up to what leaves every later middle
// column its minimum and the result inside the original range (spec 6.2 at N = 3).
ComponentPanel NumberPositionRule::arithmetic_number(const ComponentPanel& reference, int col,
                                                     Rng& rng) {
  ComponentPanel target = reference;
  const int sign = rule_.value > 0 ? 1 : -1;
  const int here = static_cast<int>(reference.entities.size());
  count_sum_ = col == 0 ? here : count_sum_ + sign * here;
  int count = count_sum_;
  if (col != frame_.grid - 2) {
    const Range& original = frame_.original.number;
    const int later = frame_.grid - 3 - col;
    const int min_count = original.min + 1;
    const int high = sign > 0 ? original.max + 1 - count_sum_ - later * min_count
                              : count_sum_ - (later + 1) * min_count;
    RAVE_CHECK(high >= min_count, "Arithmetic Number: empty operand range");
    count = rng.uniform_int(original.min, high - 1) + 1;
  }
  regenerate_entities(target, first_entity(reference), count, frame_, rng);
  return target;
}

// The last column's slot set is the union (+) or difference (-) of the row's first N-1 sets (in
// ascending order); each middle column adds a slot to the union, or leaves the difference non-empty
// (spec 6.2 at N = 3).
ComponentPanel NumberPositionRule::arithmetic_position(const ComponentPanel& reference, int col,
                                                       Rng& rng) {
  ComponentPanel target = reference;
  std::vector<int> current = slots_of(reference);
  if (col == 0) {
    slot_sum_ = current;
    std::sort(slot_sum_.begin(), slot_sum_.end());
  } else {
    std::sort(current.begin(), current.end());
    std::vector<int> next;
    if (rule_.value > 0)
      std::set_union(slot_sum_.begin(), slot_sum_.end(), current.begin(), current.end(),
                     std::back_inserter(next));
    else
      std::set_difference(slot_sum_.begin(), slot_sum_.end(), current.begin(), current.end(),
                          std::back_inserter(next));
    slot_sum_ = std::move(next);
  }
  if (col == frame_.grid - 2) {
    RAVE_CHECK(!slot_sum_.empty(), "Arithmetic Position: empty last column");
    place_regenerated(target, first_entity(reference), slot_sum_, frame_, rng);
  } else {
    place_regenerated(target, first_entity(reference), draw_position_operand(col, rng), frame_,
                      rng);
  }
  return target;
}

// Redraws Number and slots until the set adds a slot to the union (+; keeping room for one more
// slot per later middle column) or leaves the difference non-empty (-).
std::vector<int> NumberPositionRule::draw_position_operand(int col, Rng& rng) const {
  const int later = frame_.grid - 3 - col;
  for (int tries = 0; tries < kMaxRedraws; ++tries) {
    const int count = rng.uniform_int(frame_.ranges.number.min, frame_.ranges.number.max) + 1;
    std::vector<int> slots = sample_slots(frame_.slot_count, count, rng);
    if (rule_.value < 0) {
      if (!is_subset(slot_sum_, slots)) return slots;
      continue;
    }
    if (is_subset(slots, slot_sum_)) continue;
    if (later == 0) return slots;
    std::size_t added = 0;
    for (int s : slots) added += std::binary_search(slot_sum_.begin(), slot_sum_.end(), s) ? 0 : 1;
    if (static_cast<int>(slot_sum_.size() + added) <= frame_.slot_count - later) return slots;
  }
  RAVE_CHECK(false, "Arithmetic Position: operand redraw did not terminate");
  return {};
}

// N Number levels anchored on row-1 col1; rows 2..N rewrite and resample col1 (spec 6.2).
ComponentPanel NumberPositionRule::distribute_number(ComponentPanel& reference, int row, int col,
                                                     Rng& rng) {
  const int n = frame_.grid;
  if (row == 0 && col == 0) {
    const Range& range = frame_.ranges.number;
    const int anchor = reference.number_level();
    RAVE_CHECK(range.contains(anchor) && range.size() >= n, "Distribute_N Number: range too small");
    const std::vector<int> picks = rng.sample(range.size() - 1, n - 1);  // levels other than anchor
    dn_levels_.assign(1, anchor);
    for (int pick : picks) {
      const int level = range.min + pick;
      dn_levels_.push_back(level >= anchor ? level + 1 : level);
    }
    rows_ = sample_row_shifts(n, rng);
  } else if (col == 0) {
    resample_layout_with_number(reference, dn_levels_[rows_.at(row, 0)], frame_, rng);
  }
  ComponentPanel target = reference;
  regenerate_entities(target, first_entity(reference), dn_levels_[rows_.at(row, col + 1)] + 1,
                      frame_, rng);
  return target;
}

// N slot sets of the row-1 count anchored on row-1 col1; entities keep their values and only
// move; rows 2..N resample col1 at that count, then place it on the row's first set (spec 6.2).
ComponentPanel NumberPositionRule::distribute_position(ComponentPanel& reference, int row, int col,
                                                       Rng& rng) {
  const int n = frame_.grid;
  if (row == 0 && col == 0) {
    dn_sets_.assign(1, slots_of(reference));
    const int count = static_cast<int>(dn_sets_[0].size());
    for (int i = 1; i < n; ++i) dn_sets_.push_back(draw_other_set(count, dn_sets_, rng));
    rows_ = sample_row_shifts(n, rng);
  } else if (col == 0) {
    const int count = static_cast<int>(dn_sets_[0].size());
    resample_layout_with_number(reference, count - 1, frame_, rng);
    move_entities(reference, dn_sets_[rows_.at(row, 0)]);
  }
  ComponentPanel target = reference;
  move_entities(target, dn_sets_[rows_.at(row, col + 1)]);
  return target;
}

std::vector<int> NumberPositionRule::draw_other_set(int count,
                                                    std::span<const std::vector<int>> taken,
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
