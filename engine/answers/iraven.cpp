// I-RAVEN's attribute bisection tree (docs/answer-sets.md#i-raven-attribute-bisection-tree): up to
// three modifiable entries become the levels of a tree; each level draws one new value relative to
// the answer and applies it to a copy of every candidate so far (1 -> 2 -> 4 -> 8), so the answer
// sits at a cube vertex like every distractor. Each candidate records the (component, attribute)
// changes on its path.
#include <algorithm>

#include "common/error.hpp"
#include "engine/answers/internal/common.hpp"

namespace rave::engine::internal {
namespace {

std::size_t at(int index) { return static_cast<std::size_t>(index); }

// A value drawn for one level (docs/answer-sets.md#i-raven-attribute-bisection-tree).
struct LevelValue {
  std::vector<int> levels;  // Type/Size/Color: one shared or one per entity
  std::vector<int> slots;   // Position: the new slot list
  int number_level = 0;     // Number: the new level,
  std::vector<int> select;  //   the answer's entity indices to keep,
  std::vector<std::vector<int>>
      number_slots;  //   one or (Position-Number, 3 levels) two slot lists
};

// A candidate under construction.
struct Node {
  Panel panel;
  std::vector<Modification> modified;
  std::vector<bool> position_changed;  // per component
};

struct Tree {
  const Configuration& config;
  const Panel& answer;
  std::vector<LayoutMemory> memory;  // the answer's: Number table and round bookkeeping
  const SeenLevels* seen = nullptr;  // wide --values: new levels matched to the context
};

// `select` (3.3): a random subset of the answer's entity indices when the count does not grow;
// otherwise every index as often as it fits strictly below the remainder, then a random subset.
std::vector<int> draw_select(int previous, int wanted, Rng& rng) {
  if (previous >= wanted) return rng.sample(previous, wanted);
  std::vector<int> select;
  int rest = wanted;
  while (previous < rest) {
    for (int i = 0; i < previous; ++i) select.push_back(i);
    rest -= previous;
  }
  if (rest > 0)
    for (int i : rng.sample(previous, rest)) select.push_back(i);
  return select;
}

// Number (3.3): a level other than the answer's that is still open in this round (in 3-level
// Position-Number mode also with at least two combinations left), the entities to keep, then one or
// two never-used slot sets of that size. The round reopens when only the answer's level is open.
LevelValue draw_number(Tree& tree, const ModifiableEntry& entry, bool two_sets, Rng& rng) {
  const auto c = at(entry.component);
  LayoutMemory& memory = tree.memory[c];
  const ComponentPanel& answer = tree.answer.components[c];
  std::vector<int> eligible;
  for (int level = entry.range.min; level <= entry.range.max; ++level)
    if (level != answer.number_level() && memory.round_open[at(level)] &&
        !(two_sets && memory.remaining[at(level)] == 1))
      eligible.push_back(level);
  RAVE_CHECK(!eligible.empty(), "I-RAVEN: no Number level left to draw");
  LevelValue value;
  value.number_level = eligible[at(rng.below(static_cast<int>(eligible.size())))];
  memory.round_open[at(value.number_level)] = false;
  const int count = value.number_level + 1;
  value.select = draw_select(static_cast<int>(answer.entities.size()), count, rng);
  const int slot_count = static_cast<int>(tree.config.components[c].layout.slots.size());
  for (int t = 0; t < (two_sets ? 2 : 1); ++t) {
    auto& used = memory.used_sets[at(value.number_level)];
    auto slots = draw_slot_list(slot_count, count, used, rng);
    RAVE_CHECK(slots.has_value(), "I-RAVEN: Number level has no unused slot set");
    memory.remaining[at(value.number_level)] -= 1;
    used.push_back(slot_mask(*slots));
    value.number_slots.push_back(std::move(*slots));
  }
  if (std::count(memory.round_open.begin(), memory.round_open.end(), true) == 1)
    for (std::size_t k = 0; k < memory.round_open.size(); ++k)
      memory.round_open[k] = memory.remaining[k] > 0;
  return value;
}

LevelValue draw_value(Tree& tree, const ModifiableEntry& entry, bool two_sets, Rng& rng) {
  const ComponentPanel& answer = tree.answer.components[at(entry.component)];
  LevelValue value;
  if (entry.attr == Attr::kNumber) return draw_number(tree, entry, two_sets, rng);
  if (entry.attr == Attr::kPosition) {
    const int slot_count =
        static_cast<int>(tree.config.components[at(entry.component)].layout.slots.size());
    const SlotMask own = slot_mask(answer);
    auto slots = draw_slot_list(slot_count, static_cast<int>(answer.entities.size()),
                                std::span<const SlotMask>(&own, 1), rng);
    RAVE_CHECK(slots.has_value(), "I-RAVEN: no other slot set for Position");
    value.slots = std::move(*slots);
    return value;
  }
  // Type/Size/Color: one shared level (attr_uni) or one per entity, each avoiding its own level.
  const std::size_t n = entry.uniform_value ? 1 : answer.entities.size();
  for (std::size_t i = 0; i < n; ++i) {
    const int own = entity_level(answer.entities[i], entry.attr);
    auto level = draw_level_like({entry.range, entry.component, entry.attr, own, tree.seen},
                                 std::span<const int>(&own, 1), rng);
    RAVE_CHECK(level.has_value(), "I-RAVEN: no other level to draw");
    value.levels.push_back(*level);
  }
  return value;
}

// Application (3.4) of a level's value to a copy of a candidate.
Node apply_value(Node node, const ModifiableEntry& entry, const LevelValue& value) {
  const auto c = at(entry.component);
  ComponentPanel& panel = node.panel.components[c];
  if (entry.attr == Attr::kNumber) {
    const bool second = value.number_slots.size() == 2 && node.position_changed[c];
    const std::vector<int>& slots = value.number_slots[second ? 1 : 0];
    std::vector<Entity> kept;
    for (std::size_t j = 0; j < slots.size(); ++j) {
      kept.push_back(panel.entities.at(at(value.select[j])));
      kept.back().slot = slots[j];
    }
    panel.entities = std::move(kept);
  } else if (entry.attr == Attr::kPosition) {
    RAVE_CHECK(value.slots.size() == panel.entities.size(), "I-RAVEN: Position size mismatch");
    for (std::size_t i = 0; i < panel.entities.size(); ++i) panel.entities[i].slot = value.slots[i];
    node.position_changed[c] = true;
  } else {
    for (std::size_t i = 0; i < panel.entities.size(); ++i)
      entity_level(panel.entities[i], entry.attr) = value.levels[i % value.levels.size()];
  }
  node.modified.push_back({entry.component, entry.attr});
  return node;
}

// 3.2: three distinct entries (all when fewer), Number moved to the last level.
std::vector<ModifiableEntry> choose_levels(std::vector<ModifiableEntry> list, Rng& rng) {
  std::vector<ModifiableEntry> chosen;
  if (list.size() >= 3) {
    for (int i : rng.sample(static_cast<int>(list.size()), 3)) chosen.push_back(list[at(i)]);
  } else {
    chosen = std::move(list);
  }
  auto number = std::find_if(chosen.begin(), chosen.end(),
                             [](const ModifiableEntry& e) { return e.attr == Attr::kNumber; });
  if (number != chosen.end()) std::iter_swap(number, chosen.end() - 1);
  return chosen;
}

bool has_attr(const std::vector<ModifiableEntry>& levels, Attr attr) {
  return std::any_of(levels.begin(), levels.end(),
                     [attr](const ModifiableEntry& e) { return e.attr == attr; });
}

// 3.5: the tree for 3, 2 or 1 levels.
std::vector<Node> grow(Tree& tree, const std::vector<ModifiableEntry>& levels, Node root,
                       Rng& rng) {
  const bool position_number = has_attr(levels, Attr::kNumber) && has_attr(levels, Attr::kPosition);
  std::vector<Node> nodes{std::move(root)};
  if (levels.size() >= 3) {
    for (const ModifiableEntry& level : levels) {
      const LevelValue value = draw_value(tree, level, position_number, rng);
      const std::size_t before = nodes.size();
      for (std::size_t j = 0; j < before; ++j) nodes.push_back(apply_value(nodes[j], level, value));
    }
  } else if (levels.size() == 2) {
    nodes.push_back(apply_value(nodes[0], levels[0], draw_value(tree, levels[0], false, rng)));
    const int draws = position_number ? 6 : 3;
    const std::size_t targets = position_number ? 1 : 2;
    for (int i = 0; i < draws; ++i) {
      const LevelValue value = draw_value(tree, levels[1], false, rng);
      for (std::size_t j = 0; j < targets; ++j)
        nodes.push_back(apply_value(nodes[j], levels[1], value));
    }
  } else if (levels.size() == 1) {
    for (int i = 0; i < 7; ++i)
      nodes.push_back(apply_value(nodes[0], levels[0], draw_value(tree, levels[0], false, rng)));
  }
  RAVE_CHECK(nodes.size() == kCandidates, "I-RAVEN: the tree must have 8 candidates");
  return nodes;
}

}  // namespace

AnswerSet build_iraven_answers(const Matrix& matrix, Rng& rng) {
  const Configuration& config = matrix.configuration();
  const std::optional<SeenLevels> seen = seen_levels(matrix);
  Tree tree{config, matrix.answer(), fresh_memory(config), seen ? &*seen : nullptr};
  const auto levels = choose_levels(modifiable_entries(config, matrix.rules, tree.answer), rng);
  Node root{tree.answer, {}, std::vector<bool>(config.components.size(), false)};
  std::vector<Node> nodes = grow(tree, levels, std::move(root), rng);
  std::array<Panel, kCandidates> candidates;
  std::array<std::vector<Modification>, kCandidates> modified;
  for (std::size_t i = 0; i < kCandidates; ++i) {
    candidates[i] = std::move(nodes[i].panel);
    modified[i] = std::move(nodes[i].modified);
  }
  return shuffle_candidates(std::move(candidates), std::move(modified), rng);
}

}  // namespace rave::engine::internal
