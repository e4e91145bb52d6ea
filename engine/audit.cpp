// The context-blind "most shared values" rule of docs/answer-sets.md#the-context-blind-shortcut.
#include "engine/audit.hpp"

#include <algorithm>
#include <vector>

namespace rave::engine {
namespace {

// The five compared values of one component: Number, slot set, Type/Size/Color tuples.
struct ComponentValues {
  std::size_t number = 0;
  std::vector<int> slot_set;  // sorted
  std::vector<int> type, size, color;
};

std::vector<ComponentValues> values_of(const Panel& panel) {
  std::vector<ComponentValues> out;
  for (const ComponentPanel& component : panel.components) {
    ComponentValues v;
    v.number = component.entities.size();
    for (const Entity& e : component.entities) {
      v.slot_set.push_back(e.slot);
      v.type.push_back(e.type);
      v.size.push_back(e.size);
      v.color.push_back(e.color);
    }
    std::sort(v.slot_set.begin(), v.slot_set.end());
    out.push_back(std::move(v));
  }
  return out;
}

int shared(const std::vector<ComponentValues>& a, const std::vector<ComponentValues>& b) {
  int count = 0;
  for (std::size_t c = 0; c < std::min(a.size(), b.size()); ++c) {
    count += a[c].number == b[c].number;
    count += a[c].slot_set == b[c].slot_set;
    count += a[c].type == b[c].type;
    count += a[c].size == b[c].size;
    count += a[c].color == b[c].color;
  }
  return count;
}

}  // namespace

int shared_values(const Panel& a, const Panel& b) { return shared(values_of(a), values_of(b)); }

std::array<int, kCandidates> context_blind_scores(
    const std::array<Panel, kCandidates>& candidates) {
  std::array<std::vector<ComponentValues>, kCandidates> values;
  for (std::size_t i = 0; i < kCandidates; ++i) values[i] = values_of(candidates[i]);
  std::array<int, kCandidates> scores{};
  for (std::size_t i = 0; i < kCandidates; ++i)
    for (std::size_t j = i + 1; j < kCandidates; ++j) {
      const int s = shared(values[i], values[j]);
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
