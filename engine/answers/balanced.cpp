// Exchangeable answer sets (docs/answer-sets.md#balanced-an-exchangeable-answer): every
// distractor is the answer with some blocks taken from replicas of the answer (the matrix sampled
// again under its own rules; the generator draws another matrix where they offer no shape, and
// only where every redraw failed are replicas drawn under rules drawn afresh within their classes:
// rule_class, generate.cpp), each block's values
// coming from a group of pool items that all show it differently. The pool is exchangeable (its
// items are independent draws of one law), the groups are drawn equivariantly and the shape of
// the set is chosen from what every member of a group would see alike, so the answer is a
// uniformly random member of the set: nothing in the candidates alone tells it apart.
//  - cube (`--answers balanced`, I-RAVEN's variants): three blocks, two items each (2 x 2 x 2);
//    with fewer blocks that pair, one block of two and one of four items, or one block of eight.
//  - tree (RAVEN-FAIR's variants): a random recursive tree on 8 nodes, the answer at a uniformly
//    random node, each edge moving one block to another item of its group.
#include <algorithm>
#include <numeric>

#include "common/error.hpp"
#include "engine/answers/internal/balanced.hpp"
#include "engine/answers/internal/common.hpp"
#include "engine/rules/oracle.hpp"

namespace rave::engine::internal {
namespace {

std::size_t at(int i) { return static_cast<std::size_t>(i); }

// One block of the set and its items, the answer's (0) first.
struct Level {
  Block block;
  std::vector<int> items;
};

Level level_of(const BlockGroups& b, int size_index) {
  std::vector<int> items = b.groups[at(size_index)];
  std::iter_swap(items.begin(), std::find(items.begin(), items.end(), 0));
  return {b.block, items};
}

// The cube's levels: 2 x 2 x 2 over three pairing blocks, else 2 x 4, else 8; chosen from which
// blocks have groups of 2, 4 and 8 (the same for every member of a group used).
std::optional<std::vector<Level>> cube_levels(const Pool& pool, Rng& rng) {
  std::vector<int> e2, e4, e8;
  for (int k = 0; k < static_cast<int>(pool.blocks.size()); ++k) {
    const int largest = pool.blocks[at(k)].largest();
    if (largest >= 2) e2.push_back(k);
    if (largest >= 4) e4.push_back(k);
    if (largest >= 8) e8.push_back(k);
  }
  if (e2.size() >= 3) {
    std::vector<Level> levels;
    for (int i : rng.sample(static_cast<int>(e2.size()), 3))
      levels.push_back(level_of(pool.blocks[at(e2[at(i)])], 0));
    return levels;
  }
  std::vector<int> fours;
  for (int b : e4)
    if (std::any_of(e2.begin(), e2.end(), [b](int a) { return a != b; })) fours.push_back(b);
  if (!fours.empty()) {
    const int b = rng.choice(std::span<const int>(fours));
    std::vector<int> twos;
    for (int a : e2)
      if (a != b) twos.push_back(a);
    const int a = rng.choice(std::span<const int>(twos));
    return std::vector<Level>{level_of(pool.blocks[at(a)], 0), level_of(pool.blocks[at(b)], 1)};
  }
  if (!e8.empty())
    return std::vector<Level>{level_of(pool.blocks[at(rng.choice(std::span<const int>(e8)))], 2)};
  return std::nullopt;
}

// The (block, item) choices of the cube's 8 vertices, the answer's (none) first.
std::vector<std::vector<std::pair<Block, int>>> cube_vertices(const std::vector<Level>& levels) {
  std::vector<std::vector<std::pair<Block, int>>> out;
  for (int v = 0; v < kCandidates; ++v) {
    std::vector<std::pair<Block, int>> taken;
    int rest = v;
    for (const Level& l : levels) {
      const int size = static_cast<int>(l.items.size());
      if (rest % size != 0) taken.emplace_back(l.block, l.items[at(rest % size)]);
      rest /= size;
    }
    out.push_back(std::move(taken));
  }
  return out;
}

// A random recursive tree on the 8 nodes (node i hangs from a uniformly random earlier node).
std::vector<std::vector<int>> random_tree(Rng& rng) {
  std::vector<std::vector<int>> next(kCandidates);
  for (int i = 1; i < kCandidates; ++i) {
    const int parent = rng.below(i);
    next[at(i)].push_back(parent);
    next[at(parent)].push_back(i);
  }
  return next;
}

// Node states (one group position per movable block) from the answer, a uniformly random node,
// outward: each edge moves one uniformly chosen block to another member of its group. Returned in
// breadth-first order, the answer's (all 0) first.
std::vector<std::vector<int>> tree_states(const std::vector<Level>& movable, Rng& rng) {
  const std::vector<std::vector<int>> next = random_tree(rng);
  std::vector<std::vector<int>> state(kCandidates);
  std::vector<int> order{rng.below(kCandidates)};
  state[at(order[0])].assign(movable.size(), 0);
  for (std::size_t k = 0; k < order.size(); ++k)
    for (int v : next[at(order[k])]) {
      if (!state[at(v)].empty()) continue;
      std::vector<int> s = state[at(order[k])];
      const auto b = at(rng.below(static_cast<int>(movable.size())));
      const int size = static_cast<int>(movable[b].items.size());
      s[b] = (s[b] + 1 + rng.below(size - 1)) % size;  // another member, uniformly
      state[at(v)] = std::move(s);
      order.push_back(v);
    }
  std::vector<std::vector<int>> out;
  for (int v : order) out.push_back(std::move(state[at(v)]));
  return out;
}

// The tree's vertices; nullopt when 100 drawn trees all repeat a state.
std::optional<std::vector<std::vector<std::pair<Block, int>>>> tree_vertices(const Pool& pool,
                                                                             Rng& rng) {
  std::vector<Level> movable;
  for (const BlockGroups& b : pool.blocks)
    if (const int largest = b.largest(); largest >= 2)
      movable.push_back(level_of(b, largest == 8 ? 2 : largest == 4 ? 1 : 0));
  if (movable.empty()) return std::nullopt;
  for (int tries = 0; tries < 100; ++tries) {
    const std::vector<std::vector<int>> states = tree_states(movable, rng);
    std::vector<std::vector<int>> sorted = states;
    std::sort(sorted.begin(), sorted.end());
    if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) continue;
    std::vector<std::vector<std::pair<Block, int>>> out;
    for (const std::vector<int>& s : states) {
      std::vector<std::pair<Block, int>> taken;
      for (std::size_t b = 0; b < movable.size(); ++b)
        if (s[b] != 0) taken.emplace_back(movable[b].block, movable[b].items[at(s[b])]);
      out.push_back(std::move(taken));
    }
    return out;
  }
  return std::nullopt;
}

// What a candidate changed from the answer, as I-RAVEN's Modified_attributes names it.
std::vector<Modification> modifications(const Pool& pool, const Panel& candidate,
                                        const std::vector<std::pair<Block, int>>& taken) {
  std::vector<Modification> out;
  for (const auto& [block, item] : taken) {
    const ComponentPanel& a = pool.column[0].components[at(block.component)];
    const ComponentPanel& b = candidate.components[at(block.component)];
    if (block.attr != Attr::kNumber) {
      out.push_back({block.component, block.attr});
      continue;
    }
    if (a.entities.size() != b.entities.size()) out.push_back({block.component, Attr::kNumber});
    if (slot_mask(a) != slot_mask(b)) out.push_back({block.component, Attr::kPosition});
    if (a.entities.size() == b.entities.size() && slot_mask(a) == slot_mask(b))
      out.push_back({block.component, Attr::kType});  // values kept per entity
  }
  return out;
}

// Every distractor scores below the answer under the original solver. (No two candidates can look
// alike: each pair differs in how it shows some block, its count, slots or values, all drawn.)
bool passes_checks(const Matrix& matrix, const std::array<Panel, kCandidates>& c) {
  const int answer = oracle_score(matrix, c[0]);
  for (std::size_t i = 1; i < kCandidates; ++i)
    if (oracle_score(matrix, c[i]) >= answer) return false;
  return true;
}

// One exchangeable set from a fresh pool; nullopt when the pool offers no shape or a check fails.
// Whether a shape exists is the same whichever member of the groups used is the answer, so the
// first pool of a matrix is exchangeable; a later pool's answer is conditioned on the earlier
// pools' failure while its new replicas are not (own_rule_answer_set's callers draw another matrix).
std::optional<AnswerSet> try_exchangeable(const Matrix& matrix, bool tree, bool fresh_rules,
                                          Rng& rng) {
  Pool pool;
  make_pool(matrix, fresh_rules, rng, pool);
  std::optional<std::vector<std::vector<std::pair<Block, int>>>> vertices;
  if (tree) vertices = tree_vertices(pool, rng);
  if (!vertices)
    if (auto levels = cube_levels(pool, rng)) vertices = cube_vertices(*levels);
  if (!vertices) return std::nullopt;
  std::array<Panel, kCandidates> candidates;
  std::array<std::vector<Modification>, kCandidates> modified;
  for (std::size_t i = 0; i < kCandidates; ++i) {
    candidates[i] = assemble(pool, (*vertices)[i]);
    modified[i] = modifications(pool, candidates[i], (*vertices)[i]);
  }
  RAVE_CHECK(candidates[0] == matrix.answer(), "exchangeable set: vertex 0 is the answer");
  if (!passes_checks(matrix, candidates)) return std::nullopt;
  return shuffle_candidates(std::move(candidates),
                            tree ? std::nullopt : std::optional(std::move(modified)), rng);
}

}  // namespace

std::optional<AnswerSet> own_rule_exchangeable(const Matrix& matrix, bool tree, Rng& rng) {
  return try_exchangeable(matrix, tree, false, rng);
}

std::optional<AnswerSet> build_exchangeable(const Matrix& matrix, bool tree, Rng& rng) {
  for (int attempt = 0; attempt < kOwnRuleAttempts + kExchangeableAttempts; ++attempt) {
    const bool fresh_rules = attempt >= kOwnRuleAttempts;
    if (auto set = try_exchangeable(matrix, tree, fresh_rules, rng)) {
      set->fresh_rules = fresh_rules;
      return set;
    }
  }
  return std::nullopt;
}

}  // namespace rave::engine::internal
