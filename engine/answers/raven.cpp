// The original RAVEN answer set (docs/answer-sets.md#raven-a-star): a star around the answer. Seven
// times, draw an entry of the modifiable list uniformly, copy the answer and change that one
// attribute; then shuffle. Faithful including the known bias (the answer is the candidates' mode;
// Number distractors rebuild entities at random; entries drawn per entry, not per use).
#include "common/error.hpp"
#include "engine/answers/internal/common.hpp"

namespace rave::engine::internal {

AnswerSet build_raven_answers(const Matrix& matrix, Rng& rng) {
  const Configuration& config = matrix.configuration();
  const Panel& answer = matrix.answer();
  std::vector<ModifiableEntry> list = modifiable_entries(config, matrix.rules, answer);
  // The answer's memory: earlier values of every distractor are recorded on the answer.
  std::vector<LayoutMemory> memory = fresh_memory(config);
  const std::optional<SeenLevels> seen = seen_levels(matrix);
  std::array<Panel, kCandidates> candidates;
  candidates[0] = answer;
  for (std::size_t j = 1; j < kCandidates; ++j) {
    RAVE_CHECK(!list.empty(), "RAVEN answer set: modifiable attributes exhausted");
    const ModifiableEntry entry = take_entry(list, rng);
    const auto c = static_cast<std::size_t>(entry.component);
    candidates[j] = answer;
    // Every use counted in the list has a fresh value, so a RAVEN draw cannot run dry.
    const bool changed =
        raven_modify(config.components[c].layout, matrix.narrowed.at(c), entry, memory[c],
                     candidates[j].components[c], rng, seen ? &*seen : nullptr);
    RAVE_CHECK(changed, "RAVEN answer set: no new value left for a counted use");
  }
  return shuffle_candidates(std::move(candidates), std::nullopt, rng);
}

}  // namespace rave::engine::internal
