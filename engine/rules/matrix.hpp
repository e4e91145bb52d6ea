#pragma once
// Sampling one RPM matrix (docs/rules.md): rules by rejection sampling with pruning, the first
// panel, then rows 1-3 under every rule, with every stateful quirk of the original
// (docs/rules.md#rows, docs/rules.md#quirks-kept). The result holds the 9 panels (the 9th is the
// answer), the rules with their parameters and the narrowed constraints, which is all the
// answer-set builders and the oracle checker need.
//
//   Rng rng = Rng::for_problem(seed, config_index(id), k);
//   Matrix m = sample_matrix(id, rng);
//   const Panel& answer = m.answer();
#include <array>
#include <vector>

#include "engine/model/constraints.hpp"
#include "engine/model/problem.hpp"
#include "common/random.hpp"

namespace rave::engine {

/// A sampled 3x3 matrix and the generator state that explains it.
struct Matrix {
  ConfigId config = ConfigId::kCenterSingle;
  std::vector<RuleGroup> rules;                ///< one per component, parameters known
  std::vector<LayoutConstraints> narrowed;     ///< one per component, after pruning (docs/rules.md#narrowing)
  std::array<Panel, 9> panels;                 ///< row-major r1c1 .. r3c3; [8] is the answer
  int rule_tries = 0;                          ///< rejection-sampling attempts (docs/rules.md#sampling-and-pruning)

  const Panel& answer() const { return panels[8]; }
};

/// Upper bound on rule-sampling attempts before sample_rules gives up with a logic_error
/// (the worst configuration, O-IC, needs 627 on average).
inline constexpr int kMaxRuleTries = 100000;

/// Draws rule groups until the pruned grammar is non-empty (docs/rules.md#sampling-and-pruning);
/// returns the accepted groups and their narrowed constraints, and counts the attempts in `tries`.
std::vector<RuleGroup> sample_rules(const Configuration& config, Rng& rng,
                                    std::vector<LayoutConstraints>& narrowed, int& tries);
/// The whole matrix: rules, first panel, three rows.
Matrix sample_matrix(ConfigId id, Rng& rng);
/// The matrix under given rule groups (parameters known), e.g. to study one rule: first panel and
/// rows as above, rule_tries = 0. Rules that do not fit the configuration (prune() fails) are a
/// caller bug: std::logic_error.
Matrix sample_matrix(ConfigId id, const std::vector<RuleGroup>& rules, Rng& rng);

}  // namespace rave::engine
