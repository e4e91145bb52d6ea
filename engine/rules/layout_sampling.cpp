#include "engine/rules/internal/layout_sampling.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace rave::engine::internal {
namespace {

int draw(const Range& range, Rng& rng) {
  RAVE_CHECK(!range.empty(), "sampling from an empty range");
  return rng.uniform_int(range.min, range.max);
}

}  // namespace

void resample_entity(Entity& entity, const LayoutConstraints& ranges, Rng& rng) {
  entity.type = draw(ranges.type, rng);
  entity.size = draw(ranges.size, rng);
  entity.color = draw(ranges.color, rng);
  entity.angle = draw(ranges.angle, rng);
}

std::vector<int> sample_slots(int slot_count, int count, Rng& rng) {
  RAVE_CHECK(1 <= count && count <= slot_count, "Number does not fit the layout's slots");
  return rng.sample(slot_count, count);
}

void fill_entities(ComponentPanel& panel, std::span<const int> slots,
                   const LayoutConstraints& ranges, Rng& rng) {
  panel.entities.assign(slots.size(), Entity{});
  const bool uniform = is_uniform(panel);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    Entity& entity = panel.entities[i];
    if (uniform && i > 0)
      entity = panel.entities[0];
    else
      resample_entity(entity, ranges, rng);
    entity.slot = slots[i];
  }
}

ComponentPanel sample_layout(const ComponentFrame& frame, Rng& rng) {
  ComponentPanel panel;
  const int number_level = draw(frame.ranges.number, rng);
  const std::vector<int> slots = sample_slots(frame.slot_count, number_level + 1, rng);
  panel.uniformity = draw(frame.ranges.uniformity, rng);
  fill_entities(panel, slots, frame.ranges, rng);
  return panel;
}

void resample_layout(ComponentPanel& panel, const ComponentFrame& frame, Rng& rng) {
  resample_layout_with_number(panel, draw(frame.ranges.number, rng), frame, rng);
}

void resample_layout_with_number(ComponentPanel& panel, int number_level,
                                 const ComponentFrame& frame, Rng& rng) {
  const std::vector<int> slots = sample_slots(frame.slot_count, number_level + 1, rng);
  fill_entities(panel, slots, frame.ranges, rng);
}

void place_regenerated(ComponentPanel& target, const Entity& prototype, std::span<const int> slots,
                       const ComponentFrame& frame, Rng& rng) {
  const Entity model = prototype;  // `prototype` may live in `target`
  const bool uniform = is_uniform(target);
  target.entities.assign(slots.size(), model);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    target.entities[i].slot = slots[i];
    if (!uniform) resample_entity(target.entities[i], frame.ranges, rng);
  }
}

void regenerate_entities(ComponentPanel& target, const Entity& prototype, int count,
                         const ComponentFrame& frame, Rng& rng) {
  const std::vector<int> slots = sample_slots(frame.slot_count, count, rng);
  place_regenerated(target, prototype, slots, frame, rng);
}

void move_entities(ComponentPanel& panel, std::span<const int> slots) {
  RAVE_CHECK(slots.size() == panel.entities.size(), "slot list and entities differ in size");
  for (std::size_t i = 0; i < slots.size(); ++i) panel.entities[i].slot = slots[i];
}

std::vector<int> slots_of(const ComponentPanel& panel) {
  std::vector<int> slots;
  slots.reserve(panel.entities.size());
  for (const Entity& e : panel.entities) slots.push_back(e.slot);
  return slots;
}

bool is_subset(std::span<const int> a, std::span<const int> b) {
  return std::all_of(a.begin(), a.end(),
                     [&](int s) { return std::find(b.begin(), b.end(), s) != b.end(); });
}

bool same_set(std::span<const int> a, std::span<const int> b) {
  return a.size() == b.size() && is_subset(a, b);
}

RowShifts sample_row_shifts(int grid, Rng& rng) {
  RowShifts rows;
  if (grid == 3) {  // the original's coin, so that 3x3 matrices draw exactly as before
    rows.shifts = rng.coin() ? std::vector<int>{0, 1, 2} : std::vector<int>{0, 2, 1};
    return rows;
  }
  rows.shifts.resize(static_cast<std::size_t>(grid));
  for (int r = 0; r < grid; ++r) rows.shifts[static_cast<std::size_t>(r)] = r;
  rng.shuffle(std::span<int>(rows.shifts).subspan(1));
  return rows;
}

}  // namespace rave::engine::internal
