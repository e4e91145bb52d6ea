// Shared pieces of the answer-set builders: slot masks, the modifiable-attribute list
// (docs/answer-sets.md#modifiable-attributes), RAVEN's entry draw, fresh answer memory, level and
// slot-set draws, shuffle.
#include <algorithm>
#include <bit>
#include <numeric>

#include "common/error.hpp"
#include "engine/answers/internal/common.hpp"

namespace rave::engine::internal {
namespace {

constexpr std::array<Attr, 3> kEntityAttrs{Attr::kType, Attr::kSize, Attr::kColor};

Range original_range(const LayoutSpec& layout, Attr attr) {
  switch (attr) {
    case Attr::kType: return layout.type;
    case Attr::kSize: return layout.size;
    case Attr::kColor: return layout.color;
    default: RAVE_CHECK(false, "no entity range for this attribute");
  }
  return {};
}

// docs/answer-sets.md#modifiable-attributes: a Constant entity rule is "noise" (excluded) unless
// the layout is uniform, or group 0 is Constant, or group 0 is Progression/Distribute_Three on
// Position.
bool constant_is_governed(const RuleGroup& group, bool uniform) {
  const Rule& g0 = group.rules[0];
  const bool keeps_entities =
      g0.attr == RuleAttr::kPosition &&
      (g0.name == RuleName::kProgression || g0.name == RuleName::kDistributeThree);
  return uniform || g0.name == RuleName::kConstant || keeps_entities;
}

void add_layout_entries(int c, const LayoutSpec& layout, const RuleGroup& group,
                        const ComponentPanel& panel, std::vector<ModifiableEntry>& out) {
  const int slots = static_cast<int>(layout.slots.size());
  const int count = static_cast<int>(panel.entities.size());
  int number_uses = 0;
  for (int k = layout.number.min; k <= layout.number.max; ++k)
    if (k + 1 != count) number_uses += binomial(slots, k + 1);
  if (number_uses > 0) out.push_back({c, Attr::kNumber, number_uses, layout.number, false});
  if (group.rules[0].attr != RuleAttr::kNumber) {
    const int position_uses = binomial(slots, count) - 1;
    if (position_uses > 0) out.push_back({c, Attr::kPosition, position_uses, Range{}, false});
  }
  const bool uniform = panel.uniformity == kUniformLevel;
  for (std::size_t g = 1; g < 4; ++g) {
    const Attr attr = kEntityAttrs[g - 1];
    const Range range = original_range(layout, attr);
    const bool constant = group.rules[g].name == RuleName::kConstant;
    if (constant && !constant_is_governed(group, uniform)) continue;
    const int uses = range.max - range.min;
    if (uses > 0) out.push_back({c, attr, uses, range, !constant || uniform});
  }
}

}  // namespace

SlotMask slot_mask(const ComponentPanel& panel) {
  SlotMask mask = 0;
  for (const Entity& e : panel.entities) mask |= SlotMask{1} << e.slot;
  return mask;
}

SlotMask slot_mask(std::span<const int> slots) {
  SlotMask mask = 0;
  for (int s : slots) mask |= SlotMask{1} << s;
  return mask;
}

int& entity_level(Entity& entity, Attr attr) {
  switch (attr) {
    case Attr::kType: return entity.type;
    case Attr::kSize: return entity.size;
    case Attr::kColor: return entity.color;
    default: break;
  }
  RAVE_CHECK(false, "entity_level takes Type, Size or Color");
  return entity.type;
}

int entity_level(const Entity& entity, Attr attr) {
  return entity_level(const_cast<Entity&>(entity), attr);  // reads only
}

std::vector<ModifiableEntry> modifiable_entries(const Configuration& config,
                                                const std::vector<RuleGroup>& rules,
                                                const Panel& panel) {
  RAVE_CHECK(rules.size() == config.components.size() &&
                 panel.components.size() == config.components.size(),
             "rules and panel must have one entry per component of the configuration");
  std::vector<ModifiableEntry> out;
  for (std::size_t c = 0; c < rules.size(); ++c)
    add_layout_entries(static_cast<int>(c), config.components[c].layout, rules[c],
                       panel.components[c], out);
  return out;
}

ModifiableEntry take_entry(std::vector<ModifiableEntry>& list, Rng& rng) {
  RAVE_CHECK(!list.empty(), "no modifiable attribute entry left");
  const auto index = static_cast<std::size_t>(rng.below(static_cast<int>(list.size())));
  const ModifiableEntry taken = list[index];
  if (--list[index].uses == 0) list.erase(list.begin() + static_cast<std::ptrdiff_t>(index));
  return taken;
}

std::vector<LayoutMemory> fresh_memory(const Configuration& config) {
  std::vector<LayoutMemory> memory(config.components.size());
  for (std::size_t c = 0; c < memory.size(); ++c) {
    const LayoutSpec& layout = config.components[c].layout;
    const int slots = static_cast<int>(layout.slots.size());
    for (int k = layout.number.min; k <= layout.number.max; ++k) {
      memory[c].remaining[static_cast<std::size_t>(k)] = binomial(slots, k + 1);
      memory[c].round_open[static_cast<std::size_t>(k)] = true;
    }
  }
  return memory;
}

std::optional<int> draw_level(Range range, std::span<const int> excluded, Rng& rng) {
  std::vector<int> allowed;
  for (int level = range.min; level <= range.max; ++level)
    if (std::find(excluded.begin(), excluded.end(), level) == excluded.end())
      allowed.push_back(level);
  if (allowed.empty()) return std::nullopt;
  return allowed[static_cast<std::size_t>(rng.below(static_cast<int>(allowed.size())))];
}

SeenLevels::SeenLevels(const Matrix& matrix) {
  const std::size_t components = matrix.answer().components.size();
  levels_.resize(components);
  for (std::size_t p = 0; p + 1 < matrix.panels.size();
       ++p)  // the context: every panel but the last
    for (std::size_t c = 0; c < components; ++c)
      for (const Entity& e : matrix.panels[p].components[c].entities)
        for (std::size_t a = 0; a < 3; ++a)
          levels_[c][a].push_back(entity_level(
              e, static_cast<Attr>(static_cast<int>(Attr::kType) + static_cast<int>(a))));
  for (auto& component : levels_)
    for (auto& v : component) {
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
    }
}

bool SeenLevels::shown(int component, Attr attr, int level) const {
  const auto& v =
      levels_.at(static_cast<std::size_t>(component))
          .at(static_cast<std::size_t>(static_cast<int>(attr) - static_cast<int>(Attr::kType)));
  return std::binary_search(v.begin(), v.end(), level);
}

std::optional<SeenLevels> seen_levels(const Matrix& matrix) {
  if (!matrix.balanced_answers) return std::nullopt;
  return SeenLevels(matrix);
}

std::optional<int> draw_level_like(const LevelDraw& d, std::span<const int> excluded, Rng& rng) {
  if (d.seen == nullptr) return draw_level(d.range, excluded, rng);
  const bool want = d.seen->shown(d.component, d.attr, d.like);
  std::vector<int> allowed, matching;
  for (int level = d.range.min; level <= d.range.max; ++level) {
    if (std::find(excluded.begin(), excluded.end(), level) != excluded.end()) continue;
    allowed.push_back(level);
    if (d.seen->shown(d.component, d.attr, level) == want) matching.push_back(level);
  }
  const std::vector<int>& pool = matching.empty() ? allowed : matching;
  if (pool.empty()) return std::nullopt;
  return pool[static_cast<std::size_t>(rng.below(static_cast<int>(pool.size())))];
}

std::optional<std::vector<int>> draw_slot_list(int slot_count, int count,
                                               std::span<const SlotMask> excluded, Rng& rng) {
  RAVE_CHECK(0 < count && count <= slot_count && slot_count <= 16, "slot count out of range");
  std::vector<SlotMask> allowed;
  for (SlotMask mask = 0; mask < (SlotMask{1} << slot_count); ++mask)
    if (std::popcount(mask) == count &&
        std::find(excluded.begin(), excluded.end(), mask) == excluded.end())
      allowed.push_back(mask);
  if (allowed.empty()) return std::nullopt;
  const SlotMask chosen =
      allowed[static_cast<std::size_t>(rng.below(static_cast<int>(allowed.size())))];
  std::vector<int> slots;
  for (int s = 0; s < slot_count; ++s)
    if (chosen & (SlotMask{1} << s)) slots.push_back(s);
  rng.shuffle(std::span<int>(slots));
  return slots;
}

AnswerSet shuffle_candidates(
    std::array<Panel, kCandidates> candidates,
    std::optional<std::array<std::vector<Modification>, kCandidates>> modified, Rng& rng) {
  std::array<int, kCandidates> order{};
  std::iota(order.begin(), order.end(), 0);
  rng.shuffle(std::span<int>(order));
  AnswerSet set;
  if (modified) set.modified.emplace();
  for (std::size_t i = 0; i < kCandidates; ++i) {
    const auto from = static_cast<std::size_t>(order[i]);
    set.candidates[i] = std::move(candidates[from]);
    if (modified) (*set.modified)[i] = std::move((*modified)[from]);
    if (from == 0) set.target = static_cast<int>(i);
  }
  return set;
}

}  // namespace rave::engine::internal
