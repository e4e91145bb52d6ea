// RAVEN-FAIR's random tree (spec/answer-sets.md 5): grow from the answer by picking a uniformly
// random candidate that still has modifiable attributes, changing one attribute drawn from its list
// with RAVEN's modifier, and keeping the child only if the original solver scores it below the
// answer and its image differs from every candidate's image (its symbols, when no drawing is
// given). A child may not change an attribute name already changed on its path (the blacklist).
#include <algorithm>

#include "common/error.hpp"
#include "engine/answers/internal/common.hpp"
#include "engine/rules/oracle.hpp"

namespace rave::engine::internal {
namespace {

// Upper bound on modification attempts for one answer set. The loop also ends on its own when no
// candidate has a list entry left (every attempt consumes one use); this bound only makes the
// guarantee explicit. The original guarded each attempt with a 5-second alarm instead.
constexpr int kMaxFairAttempts = 20000;
// Tree shapes a balanced answer set tries before it falls back to the original's growth.
constexpr int kMaxShapes = 200;

std::size_t at(int index) { return static_cast<std::size_t>(index); }

struct FairNode {
  Panel panel;
  std::vector<LayoutMemory> memory;   // what this candidate's children were given (per parent)
  std::vector<ModifiableEntry> list;  // modifiable entries left, blacklisted names removed
  std::vector<Attr> blacklist;        // attribute names changed on the path from the answer
  Image image;
};

struct Grower {
  const Matrix& matrix;
  PanelImageFn draw;
  const Configuration& config;
  int answer_score = 0;
  std::vector<FairNode> nodes;
  int rejected = 0;
  const SeenLevels* seen = nullptr;  ///< wide --values: new levels matched to the context
};

// The picture of a panel without a drawing: its entities by slot, per component.
bool same_symbols(const Panel& a, const Panel& b) {
  if (a.components.size() != b.components.size()) return false;
  for (std::size_t c = 0; c < a.components.size(); ++c) {
    std::vector<Entity> x = a.components[c].entities, y = b.components[c].entities;
    const auto by_slot = [](const Entity& l, const Entity& r) { return l.slot < r.slot; };
    std::sort(x.begin(), x.end(), by_slot);
    std::sort(y.begin(), y.end(), by_slot);
    if (x != y) return false;
  }
  return true;
}

bool looks_like(const Grower& g, const FairNode& a, const FairNode& b) {
  return g.draw != nullptr ? a.image == b.image : same_symbols(a.panel, b.panel);
}

std::vector<ModifiableEntry> allowed_entries(const Grower& g, const Panel& panel,
                                             const std::vector<Attr>& blacklist) {
  std::vector<ModifiableEntry> list = modifiable_entries(g.config, g.matrix.rules, panel);
  std::erase_if(list, [&](const ModifiableEntry& e) {
    return std::find(blacklist.begin(), blacklist.end(), e.attr) != blacklist.end();
  });
  return list;
}

// A uniformly random candidate with a non-empty list (the original shuffles the indices and takes
// the first such one); nullopt when none is left.
std::optional<std::size_t> pick_parent(const Grower& g, Rng& rng) {
  std::vector<std::size_t> open;
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (!g.nodes[i].list.empty()) open.push_back(i);
  if (open.empty()) return std::nullopt;
  return open[at(rng.below(static_cast<int>(open.size())))];
}

// One attempt: returns the child, or nullopt when the modifier ran dry or the child was rejected.
// The parent's list use and its memory records are spent either way, as in the original.
std::optional<FairNode> try_child(Grower& g, std::size_t parent_index, Rng& rng) {
  FairNode& parent = g.nodes[parent_index];
  const ModifiableEntry entry = take_entry(parent.list, rng);
  const auto c = at(entry.component);
  FairNode child{.panel = parent.panel,
                 .memory = parent.memory,
                 .list = {},
                 .blacklist = parent.blacklist,
                 .image = {}};
  if (!raven_modify(g.config.components[c].layout, g.matrix.narrowed.at(c), entry, parent.memory[c],
                    child.panel.components[c], rng, g.seen))
    return std::nullopt;
  if (entry.attr == Attr::kNumber) child.memory[c].earlier_levels.clear();  // new entities
  // The original bars every attribute name changed on the path from the answer, so no path is
  // longer than the names there are, and where one attribute alone can lower the solver's score
  // (Number, say) every distractor hangs from the answer. A balanced tree (below) needs paths of
  // any length from an answer placed anywhere in it: it bars none (the modifier's memory still
  // keeps a path from drawing a value twice).
  if (!g.matrix.balanced_answers) child.blacklist.push_back(entry.attr);
  child.list = allowed_entries(g, child.panel, child.blacklist);
  if (oracle_score(g.matrix, child.panel) >= g.answer_score) return std::nullopt;
  if (g.draw != nullptr) child.image = g.draw(g.matrix.config, child.panel);
  for (const FairNode& node : g.nodes)
    if (looks_like(g, node, child)) return std::nullopt;
  return child;
}

// The original's growth: 7 children, each of a uniformly random candidate with entries left.
void grow_rooted(Grower& g, Rng& rng) {
  for (int attempt = 0; g.nodes.size() < kCandidates; ++attempt) {
    RAVE_CHECK(attempt < kMaxFairAttempts, "RAVEN-FAIR: attempt budget exhausted");
    const auto parent = pick_parent(g, rng);
    RAVE_CHECK(parent.has_value(), "RAVEN-FAIR: no candidate has a modifiable attribute left");
    if (auto child = try_child(g, *parent, rng))
      g.nodes.push_back(std::move(*child));
    else
      ++g.rejected;
  }
}

// A variant's growth (Matrix::balanced_answers): the original's tree shape (node i hangs from a
// uniformly random earlier node), the answer at a uniformly random node of it, and the candidates
// made outward from the answer, each edge one modification checked as the original checks it. In
// the original the answer is the root, the node most like the others: the context-blind pick finds
// it about twice as often as chance. Paths from the answer may be longer than the attribute names
// (try_child bars only the last). Returns false when an edge cannot be made (a new shape then).
bool grow_balanced(Grower& g, Rng& rng) {
  std::vector<std::vector<int>> next(kCandidates);
  for (int i = 1; i < static_cast<int>(kCandidates); ++i) {
    const int parent = rng.below(i);
    next[at(i)].push_back(parent);
    next[at(parent)].push_back(i);
  }
  std::vector<int> order{rng.below(static_cast<int>(kCandidates))}, made_from(kCandidates, -1);
  std::vector<std::size_t> node_of(kCandidates, 0);  // tree node -> index in g.nodes
  made_from[at(order[0])] = order[0];
  for (std::size_t k = 0; k < order.size(); ++k)  // breadth first from the answer
    for (int v : next[at(order[k])]) {
      if (made_from[at(v)] >= 0) continue;
      made_from[at(v)] = order[k];
      order.push_back(v);
    }
  for (std::size_t k = 1; k < order.size(); ++k) {
    const std::size_t parent = node_of[at(made_from[at(order[k])])];
    std::optional<FairNode> child;
    for (int tries = 0; !child && !g.nodes[parent].list.empty() && tries < 100; ++tries)
      if (!(child = try_child(g, parent, rng))) ++g.rejected;
    if (!child) return false;
    node_of[at(order[k])] = g.nodes.size();
    g.nodes.push_back(std::move(*child));
  }
  return true;
}

}  // namespace

AnswerSet build_fair_answers(const Matrix& matrix, Rng& rng, PanelImageFn draw) {
  Grower g{.matrix = matrix,
           .draw = draw,
           .config = matrix.configuration(),
           .answer_score = oracle_score(matrix, matrix.answer()),
           .nodes = {},
           .rejected = 0};
  RAVE_CHECK(g.answer_score > 0, "RAVEN-FAIR: the answer must pass some rule check");
  const std::optional<SeenLevels> seen = seen_levels(matrix);
  g.seen = seen ? &*seen : nullptr;
  g.nodes.push_back(FairNode{.panel = matrix.answer(),
                             .memory = fresh_memory(g.config),
                             .list = {},
                             .blacklist = {},
                             .image = {}});
  if (draw != nullptr) g.nodes[0].image = draw(matrix.config, matrix.answer());
  g.nodes[0].list = allowed_entries(g, matrix.answer(), {});
  if (!matrix.balanced_answers) {
    grow_rooted(g, rng);
  } else {
    const FairNode root = g.nodes[0];
    int shape = 0;
    for (; shape < kMaxShapes && !grow_balanced(g, rng); ++shape) g.nodes.assign(1, root);
    if (shape == kMaxShapes) {  // no balanced tree: the original's, rooted at the answer
      g.nodes.assign(1, root);
      grow_rooted(g, rng);
    }
  }
  std::array<Panel, kCandidates> candidates;
  for (std::size_t i = 0; i < kCandidates; ++i) candidates[i] = std::move(g.nodes[i].panel);
  AnswerSet set = shuffle_candidates(std::move(candidates), std::nullopt, rng);
  set.rejected = g.rejected;
  return set;
}

}  // namespace rave::engine::internal
