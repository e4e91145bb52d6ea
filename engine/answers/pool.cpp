// The pool of an exchangeable answer set (engine/answers/internal/balanced.hpp,
// docs/answer-sets.md#balanced-an-exchangeable-answer): the answer and replicas of it drawn from
// its own law (the matrix sampled again under its own rules, or under rules drawn afresh within
// its rules' classes where those offer no shape; each layout at the answer's uniformity), the blocks a distractor may take from a replica, and the nested groups of item 0.
#include <algorithm>
#include <numeric>

#include "common/error.hpp"
#include "engine/answers/internal/balanced.hpp"
#include "engine/answers/internal/common.hpp"

namespace rave::engine::internal {
namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

// The most levels at which replicas' values are drawn: the original tables' widest (Color, 10).
// Over more levels a replica's value under Constant or Distribute_Three is rarely one the context
// shows while the answer's always is, so those blocks draw from the matrix's own column instead.
constexpr int kMaxReplicaLevels = 10;

bool is_entity_attr(Attr a) { return a == Attr::kType || a == Attr::kSize || a == Attr::kColor; }

// The answer's modifiable entries of one component.
std::vector<ModifiableEntry> entries_of(const std::vector<ModifiableEntry>& all, int component) {
  std::vector<ModifiableEntry> out;
  for (const ModifiableEntry& e : all)
    if (e.component == component) out.push_back(e);
  return out;
}

bool has(const std::vector<ModifiableEntry>& entries, Attr attr, bool per_entity = false) {
  return std::any_of(entries.begin(), entries.end(), [&](const ModifiableEntry& e) {
    return e.attr == attr && (!is_entity_attr(attr) || e.uniform_value != per_entity);
  });
}

// The rule group a block's attribute belongs to (0: the layout's Number and Position).
int group_of(Attr attr) {
  switch (attr) {
    case Attr::kType: return 1;
    case Attr::kSize: return 2;
    case Attr::kColor: return 3;
    default: return 0;
  }
}

// The levels a block of `group` shows: its attribute's, or for the layout the widest.
int shown_levels(const Matrix& matrix, int component, int group) {
  const LayoutSpec& layout = matrix.configuration().components.at(at(component)).layout;
  const auto levels = [](Range r) { return r.max - r.min + 1; };
  switch (group) {
    case 1: return levels(layout.type);
    case 2: return levels(layout.size);
    case 3: return levels(layout.color);
    default: return std::max({levels(layout.type), levels(layout.size), levels(layout.color)});
  }
}

// Whether a block of `group` under `rule` draws from the matrix's last column (from_column).
bool column_rule(const Matrix& matrix, int component, int group, const Rule& rule) {
  if (!matrix.balanced_answers) return false;  // the 3x3 original's tables: replicas only
  if (shown_levels(matrix, component, group) <= kMaxReplicaLevels) return false;
  return rule.name == RuleName::kConstant || rule.name == RuleName::kDistributeThree;
}

// Whether a Constant entity rule of a layout that is not uniform is governed under the group-0
// rule `rule` (docs/answer-sets.md#modifiable-attributes): Constant, or Progression or
// Distribute_Three on Position.
bool governs_constants(const Rule& rule) {
  return rule.name == RuleName::kConstant ||
         (rule.attr == RuleAttr::kPosition &&
          (rule.name == RuleName::kProgression || rule.name == RuleName::kDistributeThree));
}

// A layout of one slot: every panel shows one entity there, so a value kept per entity is a value
// of the panel, a block of its own.
bool single_slot(const Matrix& matrix, int component) {
  return matrix.configuration().components.at(at(component)).layout.slots.size() == 1;
}

bool is_required(const Matrix& matrix, const Rule& rule) {
  const auto& required = matrix.table->required;
  return std::any_of(required.begin(), required.end(),
                     [&](const RulePair& p) { return matches(p, rule); });
}

}  // namespace

int rule_class(const Matrix& matrix, int component, int group, const Rule& rule) {
  const RuleGroup& own = matrix.rules.at(at(component));
  const bool uniform = matrix.answer().components.at(at(component)).uniformity == kUniformLevel;
  int kind = static_cast<int>(column_rule(matrix, component, group, rule)) |
             static_cast<int>(matrix.table != nullptr && is_required(matrix, rule)) << 1;
  if (group == 0) {
    // Position is modifiable unless the rule is on Number; a Constant entity rule of a layout
    // that is not uniform is governed (a block) under Constant and Position Progression or
    // Distribute_Three only (modifiable_entries).
    const bool constant_entities =
        !uniform && std::any_of(own.rules.begin() + 1, own.rules.end(),
                                [](const Rule& r) { return r.name == RuleName::kConstant; });
    kind |= static_cast<int>(rule.attr == RuleAttr::kNumber) << 2 |
            static_cast<int>(constant_entities && governs_constants(rule)) << 3;
  } else if (!uniform && !(single_slot(matrix, component) && governs_constants(own.rules[0]))) {
    kind |= static_cast<int>(rule.name == RuleName::kConstant) << 4;  // a value kept per entity
  }
  return kind;
}

std::vector<Block> answer_blocks(const Matrix& matrix) {
  const auto entries = modifiable_entries(matrix.configuration(), matrix.rules, matrix.answer());
  std::vector<Block> blocks;
  for (int c = 0; c < static_cast<int>(matrix.rules.size()); ++c) {
    const auto mine = entries_of(entries, c);
    const bool single = single_slot(matrix, c);
    const bool per_entity =
        !single && (has(mine, Attr::kType, true) || has(mine, Attr::kSize, true) ||
                    has(mine, Attr::kColor, true));
    if (has(mine, Attr::kNumber) || has(mine, Attr::kPosition) || per_entity)
      blocks.push_back({c, Attr::kNumber});
    for (Attr a : {Attr::kType, Attr::kSize, Attr::kColor})
      if (has(mine, a) || (single && has(mine, a, true))) blocks.push_back({c, a});
  }
  return blocks;
}

std::vector<int> block_key(const Matrix& matrix, const Block& block, const Panel& panel) {
  const ComponentPanel& comp = panel.components.at(at(block.component));
  if (block.attr != Attr::kNumber) return {entity_level(comp.entities.at(0), block.attr)};
  const auto entries = entries_of(
      modifiable_entries(matrix.configuration(), matrix.rules, matrix.answer()), block.component);
  std::vector<int> key{has(entries, Attr::kNumber) ? comp.number_level() : -1,
                       has(entries, Attr::kPosition) ? static_cast<int>(slot_mask(comp)) : -1};
  std::vector<Entity> by_slot = comp.entities;
  std::sort(by_slot.begin(), by_slot.end(),
            [](const Entity& a, const Entity& b) { return a.slot < b.slot; });
  for (Attr a : {Attr::kType, Attr::kSize, Attr::kColor})
    if (has(entries, a, true))
      for (const Entity& e : by_slot) key.insert(key.end(), {e.slot, entity_level(e, a)});
  return key;
}

std::array<std::vector<int>, 3> item0_groups(const std::vector<std::vector<int>>& keys, Rng& rng) {
  const int n = static_cast<int>(keys.size());
  RAVE_CHECK(n == 2 || n == 4 || n == 8 || n == 16, "item0_groups takes 2, 4, 8 or 16 items");
  std::vector<std::vector<int>> distinct = keys;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::vector<int> key_rank(distinct.size()), tiebreak(at(n)), order(at(n));
  std::iota(key_rank.begin(), key_rank.end(), 0);
  rng.shuffle(std::span<int>(key_rank));
  std::iota(tiebreak.begin(), tiebreak.end(), 0);
  rng.shuffle(std::span<int>(tiebreak));
  const auto rank_of = [&](int item) {
    const auto k = std::lower_bound(distinct.begin(), distinct.end(), keys[at(item)]);
    return key_rank[static_cast<std::size_t>(k - distinct.begin())];
  };
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return std::pair(rank_of(a), tiebreak[at(a)]) < std::pair(rank_of(b), tiebreak[at(b)]);
  });
  const int p0 = static_cast<int>(std::find(order.begin(), order.end(), 0) - order.begin());
  std::array<std::vector<int>, 3> groups;
  for (int g = 0; g < 3 && (2 << g) <= n; ++g) {
    const int size = 2 << g, stride = n / size;
    std::vector<int> group;
    for (int p = p0 % stride; p < n; p += stride) group.push_back(order[at(p)]);
    std::vector<std::vector<int>> seen;
    for (int item : group) seen.push_back(keys[at(item)]);
    std::sort(seen.begin(), seen.end());
    if (std::adjacent_find(seen.begin(), seen.end()) == seen.end()) groups[at(g)] = group;
  }
  return groups;
}

bool from_column(const Matrix& matrix, const Block& block) {
  const int group = group_of(block.attr);
  return column_rule(matrix, block.component, group,
                     matrix.rules.at(at(block.component)).rules.at(at(group)));
}

namespace {

// A rule of `group` drawn by its prior among the table's rules that can hold and are of `rule`'s
// class; `rule` itself when the class has none (a hand-built matrix's rule outside the table).
Rule draw_in_class(const Matrix& matrix, int component, int group, const Rule& rule, Rng& rng) {
  const GroupChoices& choices = matrix.table->choices.at(at(component)).at(at(group));
  const int mine = rule_class(matrix, component, group, rule);
  int total = 0;
  for (const WeightedRule& w : choices.rules)
    if (rule_class(matrix, component, group, w.rule) == mine) total += w.weight;
  if (total == 0) return rule;
  int u = rng.below(total);
  for (const WeightedRule& w : choices.rules) {
    if (rule_class(matrix, component, group, w.rule) != mine) continue;
    if (u < w.weight) return w.rule;
    u -= w.weight;
  }
  RAVE_CHECK(false, "rule weights do not sum to their total");
  return rule;
}

// The rules one replica is drawn under: the matrix's own, or (`fresh`) every group's afresh within
// its class (the matrix's own when it has no table).
std::vector<RuleGroup> replica_rules(const Matrix& matrix, bool fresh, Rng& rng) {
  std::vector<RuleGroup> rules = matrix.rules;
  if (!fresh || matrix.table == nullptr) return rules;
  for (int c = 0; c < static_cast<int>(rules.size()); ++c)
    for (int g = 0; g < kNumRuleGroups; ++g) {
      Rule& rule = rules[at(c)].rules[at(g)];
      rule = draw_in_class(matrix, c, g, rule, rng);
    }
  return rules;
}

std::vector<Panel> replicas_of(const Matrix& matrix, bool fresh, Rng& rng) {
  Configuration spec = matrix.configuration();
  for (std::size_t c = 0; c < spec.components.size(); ++c) {
    const int u = matrix.answer().components[c].uniformity;
    spec.components[c].layout.uniformity = Range{u, u};
  }
  const MatrixModel model{.id = matrix.config,
                          .config = &spec,
                          .rules = matrix.table,
                          .grid = matrix.grid,
                          .balanced_answers = matrix.balanced_answers};
  std::vector<Panel> out{matrix.answer()};
  for (int i = 1; i < kPoolItems; ++i)
    out.push_back(sample_matrix(model, replica_rules(matrix, fresh, rng), rng).answer());
  return out;
}

// The answer and the last panels of the other rows.
std::vector<Panel> column_of(const Matrix& matrix) {
  std::vector<Panel> out{matrix.answer()};
  const auto n = static_cast<std::size_t>(matrix.grid);
  for (std::size_t r = 0; r + 1 < n; ++r) out.push_back(matrix.panels.at(r * n + n - 1));
  return out;
}

// Item 0's groups in a uniformly random 2, 4 or 8 of the column's items (none when the answer
// is left out).
std::array<std::vector<int>, 3> column_groups(const std::vector<std::vector<int>>& keys, Rng& rng) {
  int kept = 2;
  while (kept * 2 <= std::min(static_cast<int>(keys.size()), kPoolItems)) kept *= 2;
  std::vector<int> chosen = rng.sample(static_cast<int>(keys.size()), kept);
  const auto answer = std::find(chosen.begin(), chosen.end(), 0);
  if (answer == chosen.end()) return {};
  std::iter_swap(chosen.begin(), answer);
  std::vector<std::vector<int>> sub;
  for (int i : chosen) sub.push_back(keys[at(i)]);
  std::array<std::vector<int>, 3> groups = item0_groups(sub, rng);
  for (auto& g : groups)
    for (int& i : g) i = chosen[at(i)];
  return groups;
}

}  // namespace

void make_pool(const Matrix& matrix, bool fresh_rules, Rng& rng, Pool& pool) {
  RAVE_CHECK(pool.blocks.empty(), "make_pool fills an empty pool");
  const std::vector<Block> blocks = answer_blocks(matrix);
  pool.column = column_of(matrix);
  if (std::any_of(blocks.begin(), blocks.end(),
                  [&](const Block& b) { return !from_column(matrix, b); }))
    pool.replicas = replicas_of(matrix, fresh_rules, rng);
  for (const Block& block : blocks) {
    const bool column = from_column(matrix, block);
    const std::vector<Panel>& items = column ? pool.column : pool.replicas;
    std::vector<std::vector<int>> keys;
    for (const Panel& item : items) keys.push_back(block_key(matrix, block, item));
    pool.blocks.push_back(
        {block, &items, column ? column_groups(keys, rng) : item0_groups(keys, rng)});
  }
}

Panel assemble(const Pool& pool, const std::vector<std::pair<Block, int>>& taken) {
  Panel out = pool.column.at(0);
  const auto source = [&](const Block& block) -> const std::vector<Panel>& {
    for (const BlockGroups& b : pool.blocks)
      if (b.block == block) return *b.items;
    RAVE_CHECK(false, "assemble: a block the pool does not have");
    return pool.column;
  };
  for (const auto& [block, item] : taken)
    if (block.attr == Attr::kNumber) {
      ComponentPanel& comp = out.components[at(block.component)];
      comp.entities = source(block)[at(item)].components[at(block.component)].entities;
    }
  // Every value block takes its item's value (the answer's unless taken), on every entity.
  for (const BlockGroups& b : pool.blocks) {
    if (b.block.attr == Attr::kNumber) continue;
    int item = 0;
    for (const auto& [block, i] : taken)
      if (block == b.block) item = i;
    const int value = entity_level(
        (*b.items)[at(item)].components[at(b.block.component)].entities.at(0), b.block.attr);
    for (Entity& e : out.components[at(b.block.component)].entities)
      entity_level(e, b.block.attr) = value;
  }
  return out;
}

}  // namespace rave::engine::internal
