// Strategy names and the dispatcher over the three answer-set builders (answers_*.cpp), with the
// invariants every answer set must satisfy checked on the way out.
#include "engine/answers/answer_set.hpp"

#include <array>

#include "common/error.hpp"
#include "engine/answers/internal/balanced.hpp"
#include "engine/answers/internal/common.hpp"

namespace rave::engine {
namespace {

constexpr std::array<std::string_view, 4> kStrategyNames{"raven", "iraven", "fair", "balanced"};

void check_answer_set(const Matrix& matrix, const AnswerSet& set) {
  RAVE_CHECK(set.target >= 0 && set.target < kCandidates, "answer set target out of range");
  for (std::size_t i = 0; i < kCandidates; ++i) {
    const bool is_target = static_cast<int>(i) == set.target;
    RAVE_CHECK((set.candidates[i] == matrix.answer()) == is_target,
               "answer set: exactly the target candidate must equal the answer");
    for (std::size_t j = i + 1; j < kCandidates; ++j)
      RAVE_CHECK(!(set.candidates[i] == set.candidates[j]), "answer set: two candidates are equal");
  }
}

// An exchangeable set in the given shape, else `fallback`'s (counted on the set).
template <class Fallback>
AnswerSet exchangeable_or(const Matrix& matrix, bool tree, Rng& rng, const Fallback& fallback) {
  if (auto set = internal::build_exchangeable(matrix, tree, rng)) return std::move(*set);
  AnswerSet set = fallback();
  set.fell_back = true;
  return set;
}

}  // namespace

std::string_view strategy_name(AnswerStrategy strategy) {
  return kStrategyNames.at(static_cast<std::size_t>(strategy));
}

std::optional<AnswerStrategy> parse_strategy(std::string_view name) {
  for (std::size_t i = 0; i < kStrategyNames.size(); ++i)
    if (kStrategyNames[i] == name) return static_cast<AnswerStrategy>(i);
  return std::nullopt;
}

AnswerStrategy strategy_named(std::string_view name) {
  if (const auto strategy = parse_strategy(name)) return *strategy;
  std::string known;
  for (auto n : kStrategyNames) known += (known.empty() ? "" : ", ") + std::string(n);
  throw UsageError("unknown answer-set strategy '" + std::string(name) + "'; known: " + known);
}

AnswerSet build_answer_set(const Matrix& matrix, AnswerStrategy strategy, Rng& rng,
                           PanelImageFn draw) {
  RAVE_CHECK(matrix.rules.size() == matrix.configuration().components.size() &&
                 matrix.narrowed.size() == matrix.rules.size(),
             "build_answer_set: the matrix needs one rule group and one narrowed constraint per "
             "component");
  AnswerSet set;
  switch (strategy) {
    case AnswerStrategy::kRaven: set = internal::build_raven_answers(matrix, rng); break;
    case AnswerStrategy::kIRaven:
      set = !matrix.balanced_answers ? internal::build_iraven_answers(matrix, rng)
                                     : exchangeable_or(matrix, false, rng, [&] {
                                         return internal::build_iraven_answers(matrix, rng);
                                       });
      break;
    case AnswerStrategy::kFair:
      set = !matrix.balanced_answers ? internal::build_fair_answers(matrix, rng, draw)
                                     : exchangeable_or(matrix, true, rng, [&] {
                                         return internal::build_fair_answers(matrix, rng, draw);
                                       });
      break;
    case AnswerStrategy::kBalanced:
      set = exchangeable_or(matrix, false, rng,
                            [&] { return internal::build_iraven_answers(matrix, rng); });
      break;
  }
  check_answer_set(matrix, set);
  return set;
}

bool draws_exchangeably(const Matrix& matrix, AnswerStrategy strategy) {
  return strategy == AnswerStrategy::kBalanced ||
         (matrix.balanced_answers && strategy != AnswerStrategy::kRaven);
}

std::optional<AnswerSet> own_rule_answer_set(const Matrix& matrix, AnswerStrategy strategy,
                                             Rng& rng) {
  RAVE_CHECK(draws_exchangeably(matrix, strategy), "own_rule_answer_set: not an exchangeable set");
  auto set = internal::own_rule_exchangeable(matrix, strategy == AnswerStrategy::kFair, rng);
  if (set) check_answer_set(matrix, *set);
  return set;
}

}  // namespace rave::engine
