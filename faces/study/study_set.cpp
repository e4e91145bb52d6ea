#include "study/study_set.hpp"

#include <algorithm>
#include <array>
#include <span>

#include "common/error.hpp"
#include "common/random.hpp"

namespace rave::study {
namespace {

bool in_split(const evaluation::Item& item, const std::string& split) {
  return item.answer && (split.empty() || item.split == split);
}

StudyProblem problem_of(const evaluation::Item& item) {
  return {item.id, item.config, *item.answer};
}

// `count` problems of `pool` drawn without replacement, in draw order.
std::vector<StudyProblem> draw(std::vector<StudyProblem> pool, int count, Rng& rng) {
  rng.shuffle(std::span(pool));
  pool.resize(static_cast<std::size_t>(count));
  return pool;
}

}  // namespace

StudySet choose_problems(const std::vector<evaluation::Item>& items, const StudyOptions& o) {
  if (o.per_config < 1) throw UsageError("problems per configuration must be at least 1");
  if (o.practice < 0) throw UsageError("practice problems must be 0 or more");
  Rng rng(mix64(o.seed ^ 0x5374756479ULL));  // "Study"
  StudySet set;
  std::array<std::vector<StudyProblem>, engine::kNumConfigs> by_config;
  for (const auto& item : items)
    if (in_split(item, o.split))
      by_config[static_cast<std::size_t>(engine::config_index(item.config))].push_back(
          problem_of(item));
  for (std::size_t c = 0; c < by_config.size(); ++c) {
    if (by_config[c].empty()) continue;
    if (by_config[c].size() < static_cast<std::size_t>(o.per_config))
      throw UsageError(std::string(engine::all_configurations()[c].folder) + " has " +
                       std::to_string(by_config[c].size()) + " problems" +
                       (o.split.empty() ? "" : " in the " + o.split + " split") + ", fewer than " +
                       std::to_string(o.per_config) + " per configuration");
    for (auto& p : draw(std::move(by_config[c]), o.per_config, rng)) set.test.push_back(p);
  }
  if (set.test.empty())
    throw UsageError("the set has no problems with an answer" +
                     (o.split.empty() ? std::string() : " in the " + o.split + " split"));
  std::vector<StudyProblem> practice;
  for (const auto& item : items)
    if (in_split(item, o.practice_split) &&
        std::none_of(set.test.begin(), set.test.end(),
                     [&](const StudyProblem& t) { return t.id == item.id; }))
      practice.push_back(problem_of(item));
  if (practice.size() < static_cast<std::size_t>(o.practice))
    throw UsageError("the set has " + std::to_string(practice.size()) + " problems for practice" +
                     (o.practice_split.empty() ? "" : " in the " + o.practice_split + " split") +
                     ", fewer than " + std::to_string(o.practice));
  set.practice = draw(std::move(practice), o.practice, rng);
  return set;
}

std::vector<std::string> participant_sequence(const StudySet& set, std::uint64_t seed,
                                              std::int64_t participant) {
  Rng rng(mix64(seed ^ mix64(static_cast<std::uint64_t>(participant))));
  std::vector<std::string> out;
  std::vector<StudyProblem> practice = set.practice;
  rng.shuffle(std::span(practice));
  for (const auto& p : practice) out.push_back(p.id);
  // Each configuration's problems shuffled; then round k takes the k-th of every configuration in
  // a shuffled order, so any 7 consecutive test problems span the configurations.
  std::array<std::vector<std::string>, engine::kNumConfigs> queues;
  for (const auto& p : set.test)
    queues[static_cast<std::size_t>(engine::config_index(p.config))].push_back(p.id);
  std::size_t rounds = 0;
  for (auto& q : queues) {
    rng.shuffle(std::span(q));
    rounds = std::max(rounds, q.size());
  }
  std::vector<std::size_t> configs;
  for (std::size_t c = 0; c < queues.size(); ++c)
    if (!queues[c].empty()) configs.push_back(c);
  for (std::size_t round = 0; round < rounds; ++round) {
    rng.shuffle(std::span(configs));
    for (std::size_t c : configs)
      if (round < queues[c].size()) out.push_back(queues[c][round]);
  }
  return out;
}

}  // namespace rave::study
