// The context-blind "most shared values" rule of docs/answer-sets.md#the-context-blind-shortcut.
#include "engine/audit.hpp"

#include <algorithm>
#include <vector>

namespace rave::engine {
namespace {

// Whether two components hold the same set of slots (entities are kept in Position order, so the
// slot lists are usually sorted already; others are sorted in a copy).
bool same_slot_set(const ComponentPanel& a, const ComponentPanel& b) {
  const auto by_slot = [](const Entity& x, const Entity& y) { return x.slot < y.slot; };
  const bool sorted = std::is_sorted(a.entities.begin(), a.entities.end(), by_slot) &&
                      std::is_sorted(b.entities.begin(), b.entities.end(), by_slot);
  if (sorted)
    return std::equal(a.entities.begin(), a.entities.end(), b.entities.begin(),
                      [](const Entity& x, const Entity& y) { return x.slot == y.slot; });
  const auto slots = [](const ComponentPanel& c) {
    std::vector<int> out;
    for (const Entity& e : c.entities) out.push_back(e.slot);
    std::sort(out.begin(), out.end());
    return out;
  };
  return slots(a) == slots(b);
}

// How many of one component's five compared values two panels share: Number, the slot set, and the
// Type, Size and Color sequences (in entity order). Counts of different Number share none.
int shared_component(const ComponentPanel& a, const ComponentPanel& b) {
  const std::size_t n = a.entities.size();
  if (n != b.entities.size()) return 0;
  bool type = true, size = true, color = true;
  for (std::size_t i = 0; i < n; ++i) {
    type = type && a.entities[i].type == b.entities[i].type;
    size = size && a.entities[i].size == b.entities[i].size;
    color = color && a.entities[i].color == b.entities[i].color;
  }
  return 1 + same_slot_set(a, b) + type + size + color;
}

int shared(const Panel& a, const Panel& b) {
  int count = 0;
  for (std::size_t c = 0; c < std::min(a.components.size(), b.components.size()); ++c)
    count += shared_component(a.components[c], b.components[c]);
  return count;
}

}  // namespace

int shared_values(const Panel& a, const Panel& b) { return shared(a, b); }

std::array<int, kCandidates> context_blind_scores(
    const std::array<Panel, kCandidates>& candidates) {
  std::array<int, kCandidates> scores{};
  for (std::size_t i = 0; i < kCandidates; ++i)
    for (std::size_t j = i + 1; j < kCandidates; ++j) {
      const int s = shared(candidates[i], candidates[j]);
      scores[i] += s;
      scores[j] += s;
    }
  return scores;
}

int context_blind_choice(const std::array<Panel, kCandidates>& candidates) {
  const std::array<int, kCandidates> scores = context_blind_scores(candidates);
  return static_cast<int>(std::max_element(scores.begin(), scores.end()) - scores.begin());
}

BlindAudit context_blind_audit(std::span<const Problem> problems) {
  BlindAudit audit;
  for (const Problem& p : problems) {
    if (!p.target) continue;
    ++audit.problems;
    audit.hits += context_blind_choice(p.candidates) == *p.target;
  }
  return audit;
}

std::array<BlindAudit, kNumConfigs> context_blind_audit_by_config(
    std::span<const Problem> problems) {
  std::array<BlindAudit, kNumConfigs> audits{};
  for (const Problem& p : problems) {
    const BlindAudit one = context_blind_audit(std::span<const Problem>(&p, 1));
    BlindAudit& into = audits.at(static_cast<std::size_t>(config_index(p.config)));
    into.problems += one.problems;
    into.hits += one.hits;
  }
  return audits;
}

}  // namespace rave::engine
