// RAVEN's copy-and-modify step (docs/answer-sets.md#raven-a-star), shared by the RAVEN star and the
// RAVEN-FAIR tree: Number (combination bookkeeping, random entity rebuild), Position (a new slot
// set), and Type/Size/Color (a new level per entity, avoiding the levels earlier changes gave that
// entity).
#include <numeric>

#include "common/error.hpp"
#include "engine/answers/internal/common.hpp"

namespace rave::engine::internal {
namespace {

std::size_t at(int index) { return static_cast<std::size_t>(index); }

int weighted_index(std::span<const int> weights, Rng& rng) {
  const int total = std::accumulate(weights.begin(), weights.end(), 0);
  int pick = rng.below(total);
  for (std::size_t i = 0; i < weights.size(); ++i) {
    if (pick < weights[i]) return static_cast<int>(i);
    pick -= weights[i];
  }
  RAVE_CHECK(false, "weighted_index fell off the end");
  return 0;
}

// docs/answer-sets.md#raven-a-star: a Number distractor's entities are built from scratch, each
// drawing Type, Size, Color and Angle uniformly in the layout's narrowed entity ranges, ignoring
// Uniformity and the rules.
Entity random_entity(int slot, const LayoutConstraints& narrowed, Rng& rng) {
  Entity e;
  e.slot = slot;
  e.type = rng.uniform_int(narrowed.type.min, narrowed.type.max);
  e.size = rng.uniform_int(narrowed.size.min, narrowed.size.max);
  e.color = rng.uniform_int(narrowed.color.min, narrowed.color.max);
  e.angle = rng.uniform_int(narrowed.angle.min, narrowed.angle.max);
  return e;
}

// The same with Type, Size and Color seen in the context as `like`'s are (wide --values).
Entity matched_entity(int slot, const LayoutConstraints& narrowed, int component,
                      const Entity& like, const SeenLevels& seen, Rng& rng) {
  Entity e;
  e.slot = slot;
  const auto level = [&](Range range, Attr attr) {
    return *draw_level_like({range, component, attr, entity_level(like, attr), &seen}, {}, rng);
  };
  e.type = level(narrowed.type, Attr::kType);
  e.size = level(narrowed.size, Attr::kSize);
  e.color = level(narrowed.color, Attr::kColor);
  e.angle = rng.uniform_int(narrowed.angle.min, narrowed.angle.max);
  return e;
}

bool modify_number(const LayoutSpec& layout, const LayoutConstraints& narrowed,
                   const ModifiableEntry& entry, LayoutMemory& memory, ComponentPanel& panel,
                   Rng& rng, const SeenLevels* seen) {
  const int slot_count = static_cast<int>(layout.slots.size());
  auto draw = draw_raven_number(slot_count, entry.range, panel.number_level(), memory, rng);
  if (!draw) return false;
  const std::vector<Entity> before = std::move(panel.entities);
  panel.entities.clear();
  for (std::size_t j = 0; j < draw->slots.size(); ++j)
    panel.entities.push_back(seen == nullptr
                                 ? random_entity(draw->slots[j], narrowed, rng)
                                 : matched_entity(draw->slots[j], narrowed, entry.component,
                                                  before[j % before.size()], *seen, rng));
  return true;
}

bool modify_position(const LayoutSpec& layout, LayoutMemory& memory, ComponentPanel& panel,
                     Rng& rng) {
  std::vector<SlotMask> excluded = memory.earlier_positions;
  excluded.push_back(slot_mask(panel));
  const int slot_count = static_cast<int>(layout.slots.size());
  const int count = static_cast<int>(panel.entities.size());
  auto slots = draw_slot_list(slot_count, count, excluded, rng);
  if (!slots) return false;
  memory.earlier_positions.push_back(slot_mask(*slots));
  for (std::size_t i = 0; i < panel.entities.size(); ++i) panel.entities[i].slot = (*slots)[i];
  return true;
}

// Each entity independently: a level of the original range other than its own and other than the
// levels earlier changes gave this entity index. Recorded entity by entity, as the original does
// (so a failure part-way leaves the earlier entities' records in place).
bool modify_entity_attr(const ModifiableEntry& entry, LayoutMemory& memory, ComponentPanel& panel,
                        Rng& rng, const SeenLevels* seen) {
  const auto which = static_cast<std::size_t>(entry.attr) - static_cast<std::size_t>(Attr::kType);
  if (memory.earlier_levels.size() < panel.entities.size())
    memory.earlier_levels.resize(panel.entities.size());
  for (std::size_t i = 0; i < panel.entities.size(); ++i) {
    int& level = entity_level(panel.entities[i], entry.attr);
    std::vector<int> excluded = memory.earlier_levels[i][which];
    excluded.push_back(level);
    auto drawn =
        draw_level_like({entry.range, entry.component, entry.attr, level, seen}, excluded, rng);
    if (!drawn) return false;
    level = *drawn;
    memory.earlier_levels[i][which].push_back(*drawn);
  }
  return true;
}

}  // namespace

// The original draws a level uniformly (redrawing while its combinations are used up), then a slot
// set, and redraws both while the (level, set) pair was used before. The accepted pair therefore
// has P(level, set) proportional to 1 / C(slots, level + 1) over unused pairs, so
// P(level) is proportional to remaining(level) / C(slots, level + 1). We draw exactly that law with
// integer weights remaining * lcm / C, then a uniform unused set: no unbounded loop.
std::optional<NumberDraw> draw_raven_number(int slot_count, Range range, int current,
                                            LayoutMemory& memory, Rng& rng) {
  int lcm = 1;
  for (int level = range.min; level <= range.max; ++level)
    lcm = std::lcm(lcm, binomial(slot_count, level + 1));
  std::vector<int> levels, weights;
  for (int level = range.min; level <= range.max; ++level) {
    const int left = memory.remaining[at(level)];
    if (level == current || left <= 0) continue;
    levels.push_back(level);
    weights.push_back(left * (lcm / binomial(slot_count, level + 1)));
  }
  if (levels.empty()) return std::nullopt;
  const int level = levels[at(weighted_index(weights, rng))];
  auto slots = draw_slot_list(slot_count, level + 1, memory.used_sets[at(level)], rng);
  RAVE_CHECK(slots.has_value(), "Number level has combinations left but no unused slot set");
  memory.remaining[at(level)] -= 1;
  memory.used_sets[at(level)].push_back(slot_mask(*slots));
  return NumberDraw{level, std::move(*slots)};
}

bool raven_modify(const LayoutSpec& layout, const LayoutConstraints& narrowed,
                  const ModifiableEntry& entry, LayoutMemory& memory, ComponentPanel& panel,
                  Rng& rng, const SeenLevels* seen) {
  switch (entry.attr) {
    case Attr::kNumber: return modify_number(layout, narrowed, entry, memory, panel, rng, seen);
    case Attr::kPosition: return modify_position(layout, memory, panel, rng);
    case Attr::kType:
    case Attr::kSize:
    case Attr::kColor: return modify_entity_attr(entry, memory, panel, rng, seen);
    default: break;
  }
  RAVE_CHECK(false, "raven_modify: attribute cannot be modified");
  return false;
}

}  // namespace rave::engine::internal
