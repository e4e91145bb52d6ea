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

// Type, Size and Color: an entity's level of attribute a.
int level_of(const Entity& e, std::size_t a) { return a == 0 ? e.type : a == 1 ? e.size : e.color; }

// The Type, Size and Color levels the context shows in component c, each sorted and unique.
using ShownLevels = std::array<std::vector<int>, 3>;
ShownLevels levels_shown(const std::vector<Panel>& context, std::size_t c) {
  ShownLevels shown;
  for (const Panel& p : context)
    for (const Entity& e : p.components.at(c).entities)
      for (std::size_t a = 0; a < 3; ++a) shown[a].push_back(level_of(e, a));
  for (auto& v : shown) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  return shown;
}

// Adds a candidate component's values to its share: how many the context shows, of how many.
void count_seen(const ComponentPanel& component, const ShownLevels& shown, SeenShare& share) {
  for (const Entity& e : component.entities)
    for (std::size_t a = 0; a < 3; ++a) {
      share.seen += std::binary_search(shown[a].begin(), shown[a].end(), level_of(e, a));
      ++share.total;
    }
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

std::array<SeenShare, kCandidates> values_seen_shares(const Problem& problem) {
  std::array<SeenShare, kCandidates> shares{};
  const std::size_t components = problem.candidates[0].components.size();
  for (std::size_t c = 0; c < components; ++c) {
    const ShownLevels shown = levels_shown(problem.context, c);
    for (std::size_t i = 0; i < kCandidates; ++i)
      count_seen(problem.candidates[i].components.at(c), shown, shares[i]);
  }
  return shares;
}

double values_seen_credit(const Problem& problem) {
  if (!problem.target) return 0.0;
  const auto shares = values_seen_shares(problem);
  // a/b > c/d as a*d > c*b (totals are positive: every candidate has an entity)
  const auto above = [](const SeenShare& x, const SeenShare& y) {
    return static_cast<long long>(x.seen) * y.total > static_cast<long long>(y.seen) * x.total;
  };
  SeenShare best = shares[0];
  for (const SeenShare& s : shares)
    if (above(s, best)) best = s;
  int tied = 0;
  for (const SeenShare& s : shares) tied += !above(best, s);
  const SeenShare& answer = shares[static_cast<std::size_t>(*problem.target)];
  return above(best, answer) ? 0.0 : 1.0 / tied;
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
