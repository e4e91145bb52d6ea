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
                    child.panel.components[c], rng))
    return std::nullopt;
  if (entry.attr == Attr::kNumber) child.memory[c].earlier_levels.clear();  // new entities
  child.blacklist.push_back(entry.attr);
  child.list = allowed_entries(g, child.panel, child.blacklist);
  if (oracle_score(g.matrix, child.panel) >= g.answer_score) return std::nullopt;
  if (g.draw != nullptr) child.image = g.draw(g.matrix.config, child.panel);
  for (const FairNode& node : g.nodes)
    if (looks_like(g, node, child)) return std::nullopt;
  return child;
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
  g.nodes.push_back(FairNode{.panel = matrix.answer(),
                             .memory = fresh_memory(g.config),
                             .list = {},
                             .blacklist = {},
                             .image = {}});
  if (draw != nullptr) g.nodes[0].image = draw(matrix.config, matrix.answer());
  g.nodes[0].list = allowed_entries(g, matrix.answer(), {});
  for (int attempt = 0; g.nodes.size() < kCandidates; ++attempt) {
    RAVE_CHECK(attempt < kMaxFairAttempts, "RAVEN-FAIR: attempt budget exhausted");
    const auto parent = pick_parent(g, rng);
    RAVE_CHECK(parent.has_value(), "RAVEN-FAIR: no candidate has a modifiable attribute left");
    if (auto child = try_child(g, *parent, rng))
      g.nodes.push_back(std::move(*child));
    else
      ++g.rejected;
  }
  std::array<Panel, kCandidates> candidates;
  for (std::size_t i = 0; i < kCandidates; ++i) candidates[i] = std::move(g.nodes[i].panel);
  AnswerSet set = shuffle_candidates(std::move(candidates), std::nullopt, rng);
  set.rejected = g.rejected;
  return set;
}

}  // namespace rave::engine::internal
