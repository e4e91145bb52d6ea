#pragma once
// Sampling one RPM matrix (spec/raven.md 4-6): rules by rejection sampling with pruning, the first
// panel, then the rows under every rule, with every stateful quirk of the original (spec 6, 12).
// The result holds the N*N panels (the last is the answer), the rules with their parameters and the
// narrowed constraints, which is all the answer-set builders and the oracle checker need.
// A MatrixModel names what is sampled: a configuration's ranges, rule table and matrix side under a
// variant (docs/variants.md); the default model is the original 3x3 generator, drawn exactly as
// before variants existed.
//
//   Rng rng = Rng::for_problem(seed, config_index(id), k);
//   Matrix m = sample_matrix(id, rng);                                  // the original
//   Matrix big = sample_matrix(matrix_model(id, Variant{.grid = 5}), rng);
//   const Panel& answer = big.answer();                                  // big.panels[24]
#include <optional>
#include <vector>

#include "common/random.hpp"
#include "engine/model/constraints.hpp"
#include "engine/model/problem.hpp"
#include "engine/model/variant.hpp"
#include "engine/rules/variant_rules.hpp"

namespace rave::engine {

/// What the sampler draws from.
struct MatrixModel {
  ConfigId id = ConfigId::kCenterSingle;
  const Configuration* config =
      nullptr;  ///< ranges in sampling levels (engine/model/variant_space.hpp)
  const VariantRules* rules = nullptr;  ///< the rule table per component and group
  int grid = kDefaultGrid;              ///< N
  /// A variant's answer sets (Matrix::balanced_answers).
  bool balanced_answers = false;
  /// Rules drawn directly from those that can hold (VariantRules::choices), one draw per group;
  /// false: the original's rejection sampling, whose draws the 3x3 originals' bytes depend on. The
  /// accepted distribution is the same (tests/engine/rules/direct_rule_sampling_test.cpp).
  bool direct_rules = false;
};
/// Whether `variant` samples its rules as the original does, by rejection (3 x 3, the spec's
/// values, no regime: the originals, with or without confounders); every other variant draws them
/// directly (MatrixModel::direct_rules), with the same distribution but other draws than rave 0.3.
bool draws_original_rules(const Variant& variant);
/// The model of `id` under `variant` for problems of `split` (needed by regimes).
MatrixModel matrix_model(ConfigId id, const Variant& variant = {}, std::optional<Split> split = {});

/// A sampled N x N matrix and the generator state that explains it.
struct Matrix {
  ConfigId config = ConfigId::kCenterSingle;
  const Configuration* spec = nullptr;  ///< the ranges sampled from; nullptr: configuration(config)
  int grid = kDefaultGrid;              ///< N
  std::vector<RuleGroup> rules;         ///< one per component, parameters known
  std::vector<LayoutConstraints> narrowed;  ///< one per component, after pruning (spec 4.3)
  std::vector<Panel> panels =
      std::vector<Panel>(kDefaultGrid * kDefaultGrid);  ///< row-major, N*N; the last is the answer
  int rule_tries = 0;                                   ///< rejection-sampling attempts (spec 4.2)
  /// A variant's answer sets, without the shortcuts the originals' have there
  /// (docs/answer-sets.md#variants-without-shortcuts): new Type/Size/Color levels are seen in the
  /// context as often as the answer's (a uniform draw from a wide range rarely hits a level the
  /// matrix shows), and RAVEN-FAIR's answer sits at a uniformly random node of its tree. Set for
  /// `--values` and matrices larger than 3x3; the 3x3 original stays the originals' byte for byte.
  bool balanced_answers = false;
  /// The rule table the rules were drawn from (MatrixModel::rules): an exchangeable answer set
  /// draws its replicas' rules from it (docs/answer-sets.md#balanced-an-exchangeable-answer).
  /// nullptr for a matrix built by hand, whose replicas keep its rules.
  const VariantRules* table = nullptr;

  const Panel& answer() const { return panels.back(); }
  /// The configuration with the level ranges the matrix was sampled from.
  const Configuration& configuration() const {
    return spec != nullptr ? *spec : engine::configuration(config);
  }
};

/// Upper bound on rule-sampling attempts before sample_rules gives up with a logic_error. The
/// original's worst configuration, O-IC, needs 627 tries on average; rejection sampling a 10 x 10
/// O-IC would need about 64,000 (direct draws need one, more only for held-out pairs).
inline constexpr int kMaxRuleTries = 10000000;

/// Draws rule groups until the pruned grammar is non-empty (spec 4.2) and, when the model requires
/// held-out pairs, until one occurs; returns the accepted groups and their narrowed constraints,
/// and counts the attempts in `tries` (with direct_rules: draws of every group, 1 unless a draw
/// held none of the required pairs).
std::vector<RuleGroup> sample_rules(const MatrixModel& model, Rng& rng,
                                    std::vector<LayoutConstraints>& narrowed, int& tries);
/// The same for the original 3x3 table of `config` (its own ranges).
std::vector<RuleGroup> sample_rules(const Configuration& config, Rng& rng,
                                    std::vector<LayoutConstraints>& narrowed, int& tries);
/// The whole matrix: rules, first panel, N rows.
Matrix sample_matrix(const MatrixModel& model, Rng& rng);
Matrix sample_matrix(ConfigId id, Rng& rng);
/// The matrix under given rule groups (parameters known), e.g. to study one rule: first panel and
/// rows as above, rule_tries = 0. Rules that do not fit the model (prune() fails) are a caller bug:
/// std::logic_error.
Matrix sample_matrix(const MatrixModel& model, const std::vector<RuleGroup>& rules, Rng& rng);
Matrix sample_matrix(ConfigId id, const std::vector<RuleGroup>& rules, Rng& rng);

}  // namespace rave::engine
