#pragma once
// Internals of the exchangeable answer sets (docs/answer-sets.md#balanced-an-exchangeable-answer):
// the pool of the answer and its replicas (the last panel of the matrix sampled again under its own
// rules, or rules drawn within their classes, and the same uniformity), the blocks a distractor may take from a replica, and per
// block the nested groups of the pool that item 0 (the answer) belongs to. Not part of the public
// API; tests include it to check the pieces one by one.
//
//   Pool pool;  make_pool(matrix, rng, pool);  // every source's items[0] is the answer
//   for (const BlockGroups& b : pool.blocks) b.groups[0];   // item 0's pair, when it has one
#include <array>
#include <vector>

#include "common/random.hpp"
#include "engine/answers/answer_set.hpp"
#include "engine/rules/matrix.hpp"

namespace rave::engine::internal {

/// Items of a pool: the answer and 15 replicas.
inline constexpr int kPoolItems = 16;

/// A part of the answer panel a distractor may take whole from a replica: a component's layout
/// (`attr` kNumber: its Number and Position and everything that rides on its entities) or one of
/// its Type, Size or Color values that the whole panel shares (`attr` that attribute).
struct Block {
  int component = 0;
  Attr attr = Attr::kNumber;
  friend bool operator==(const Block&, const Block&) = default;
};

/// A block, the items it draws from (items[0] is the answer) and the groups of item 0: groups[0],
/// [1], [2] are its group of 2, 4 and 8 items (nested), each empty unless every item in it shows
/// the block differently (all empty when the answer was left out of a trimmed column).
struct BlockGroups {
  Block block;
  const std::vector<Panel>* items = nullptr;
  std::array<std::vector<int>, 3> groups;
  /// The size of the largest group item 0 has (0, 2, 4 or 8).
  int largest() const {
    for (int g = 2; g >= 0; --g)
      if (!groups[static_cast<std::size_t>(g)].empty()) return 2 << g;
    return 0;
  }
};

/// The answer's replicas, two kinds: `replicas`, the answer and the last panels of the matrix
/// sampled again under rules drawn within the class of its own (rule_class); `column`, the answer and the matrix's own last column (its
/// rows are exchangeable draws where the block's rule is Constant or Distribute_Three, and the
/// context shows their values as it shows the answer's). Every block with item 0's groups.
struct Pool {
  std::vector<Panel> replicas;
  std::vector<Panel> column;
  std::vector<BlockGroups> blocks;
  Pool() = default;
  Pool(const Pool&) = delete;  // blocks point into the two lists
  Pool& operator=(const Pool&) = delete;
};

/// The blocks of the answer panel (docs/answer-sets.md#balanced-an-exchangeable-answer): per
/// component the layout when Number, Position or an entity value kept per entity can be modified,
/// and each Type, Size and Color shared by the whole panel that can be.
std::vector<Block> answer_blocks(const Matrix& matrix);
/// What the answer set reads of a rule of `group` (0 Number/Position, 1 Type, 2 Size, 3 Color) of
/// `component`, as a class: whether it draws from the column (from_column), is one of the table's
/// required pairs, is on Number (group 0), governs the Constant entity rules of a layout that is
/// not uniform (group 0), is Constant in a layout that is not uniform (groups 1-3). Two rules of one
/// class give the answer the same blocks, keys and sources; a replica's rule of each group is drawn
/// by its prior among the table's rules of the answer's class.
int rule_class(const Matrix& matrix, int component, int group, const Rule& rule);
/// How `panel` shows `block`, as a key: equal keys, the same block to the rules.
std::vector<int> block_key(const Matrix& matrix, const Block& block, const Panel& panel);
/// Whether `block` draws from the matrix's last column (a variant's block under Constant or
/// Distribute_Three over more than the original tables' 10 levels) rather than from replicas.
bool from_column(const Matrix& matrix, const Block& block);
/// The pool of `matrix` (make_pool fills `pool`, which must be empty: blocks point into it): its
/// replicas drawn under the matrix's own rules, or (`fresh_rules`) under rules drawn afresh within
/// their classes (rule_class).
void make_pool(const Matrix& matrix, bool fresh_rules, Rng& rng, Pool& pool);
/// Item 0's groups over `keys` (one per item; 2, 4, 8 or 16 items): the items in a uniformly random
/// order sorted by key (keys in a uniformly random order), position p's group of g items the
/// positions congruent to p modulo n / g; kept when its keys differ. Equivariant: relabelling the
/// items permutes the groups alike.
std::array<std::vector<int>, 3> item0_groups(const std::vector<std::vector<int>>& keys, Rng& rng);

/// A candidate: the answer with, for each (block, item) in `taken`, the block of that item.
Panel assemble(const Pool& pool, const std::vector<std::pair<Block, int>>& taken);

/// Pools drawn under the matrix's own rules for one exchangeable set, first.
inline constexpr int kOwnRuleAttempts = 1;
/// Pools drawn under fresh rules of the class after those, before the caller falls back.
inline constexpr int kExchangeableAttempts = 4;

/// The exchangeable answer sets: the cube of I-RAVEN's shape (`tree` false; also `--answers
/// balanced`) or a RAVEN-FAIR-like random tree with the answer at a uniformly random node, from
/// the first pool that offers one: kOwnRuleAttempts pools of replicas under the matrix's own rules,
/// then kExchangeableAttempts under fresh rules of their classes (the set's `fresh_rules`). nullopt
/// when none does (the caller falls back and counts it).
std::optional<AnswerSet> build_exchangeable(const Matrix& matrix, bool tree, Rng& rng);

/// An exchangeable set from one pool under the matrix's own rules; nullopt when it offers no shape
/// or a check fails (own_rule_answer_set's caller then draws another matrix).
std::optional<AnswerSet> own_rule_exchangeable(const Matrix& matrix, bool tree, Rng& rng);

}  // namespace rave::engine::internal
