#include "engine/generate.hpp"

#include "engine/model/variant_space.hpp"
#include "engine/render/render.hpp"
#include "engine/rules/oracle.hpp"

namespace rave::engine {
namespace {

// Salt of the confounders' stream (independent of the problem's own).
constexpr std::uint64_t kConfounderSalt = 0xC0F0'0DE5'5EED'0001ULL;

void map_levels(Panel& panel, const VariantSpace& space) {
  for (std::size_t c = 0; c < panel.components.size(); ++c) {
    const LevelMaps& maps = space.maps[c];
    for (Entity& e : panel.components[c].entities) {
      e.type = maps[0].level(e.type);
      e.size = maps[1].level(e.size);
      e.color = maps[2].level(e.color);
    }
  }
}

void add_confounders(Panel& panel, const Variant& variant, Rng& rng) {
  const auto k = static_cast<std::size_t>(variant.confounders);
  for (ComponentPanel& component : panel.components) {
    component.confounders.resize(component.entities.size() * k);
    for (int& value : component.confounders) value = rng.below(variant.confounder_levels());
  }
}

// File levels and confounders of a variant's problem (the original needs neither).
void finish_variant(Problem& problem, const VariantSpace& space, std::uint64_t seed,
                    std::uint64_t k, std::uint64_t attempt) {
  const int panels = problem.panel_count();
  if (!space.identity)
    for (int i = 0; i < panels; ++i) map_levels(problem.panel(i), space);
  if (problem.variant.confounders == 0) return;
  Rng rng =
      Rng::for_problem(mix64(seed ^ kConfounderSalt), config_index(problem.config), k, attempt);
  for (int i = 0; i < panels; ++i) add_confounders(problem.panel(i), problem.variant, rng);
}

// The split a variant's tables depend on: only a regime's do.
std::optional<Split> known_split(const Variant& variant, Split split) {
  return variant.regime == Regime::kNeutral ? std::nullopt : std::optional(split);
}

// A matrix of `model` and its answer set. For an exchangeable set, a matrix whose pool under its
// own rules offers no shape is put back and drawn again (own_rule_answer_set: a set from a matrix's
// first pool is exchangeable by construction, one from a later pool is not): first its values
// under the same rules, kValueDraws matrices in all, so that the rules keep the table's law; then,
// for rules whose values rarely offer a shape, other rules, kRuleDraws times. The last matrix's set
// is build_answer_set's (pools under fresh rules, then the fallback). Any other strategy draws one
// matrix and nothing more from `rng` than before (the 3x3 originals stay byte-identical).
std::pair<Matrix, AnswerSet> matrix_and_answers(const MatrixModel& model, AnswerStrategy strategy,
                                                Rng& rng, PanelImageFn draw) {
  Matrix matrix = sample_matrix(model, rng);
  if (!draws_exchangeably(matrix, strategy)) {
    AnswerSet set = build_answer_set(matrix, strategy, rng, draw);
    return {std::move(matrix), std::move(set)};
  }
  int redraws = 0;
  for (int r = 0; r < kRuleDraws; ++r) {
    if (r > 0) matrix = sample_matrix(model, rng);
    for (int v = 0; v < kValueDraws; ++v, ++redraws) {
      if (v > 0) matrix = sample_matrix(model, matrix.rules, rng);
      if (auto set = own_rule_answer_set(matrix, strategy, rng)) {
        set->matrix_redraws = redraws;
        set->rule_redraws = r;
        return {std::move(matrix), std::move(*set)};
      }
    }
  }
  AnswerSet set = build_answer_set(matrix, strategy, rng, draw);
  set.matrix_redraws = redraws;
  set.rule_redraws = kRuleDraws;
  return {std::move(matrix), std::move(set)};
}

}  // namespace

Problem assemble_problem(const Matrix& matrix, AnswerSet answers, int predict) {
  Problem problem;
  problem.config = matrix.config;
  problem.variant.grid = matrix.grid;
  problem.context.assign(matrix.panels.begin(), matrix.panels.end() - 1);
  problem.candidates = std::move(answers.candidates);
  problem.rules = matrix.rules;
  problem.target = answers.target;
  problem.predict = predict;
  problem.modified = std::move(answers.modified);
  return problem;
}

DrawnProblem draw_matrix_and_answers(ConfigId config, AnswerStrategy strategy, std::uint64_t seed,
                                     std::uint64_t k, const Variant& variant, Split split,
                                     std::uint64_t attempt) {
  Rng rng = Rng::for_problem(seed, config_index(config), k, attempt);
  if (variant.is_original()) {
    auto [matrix, answers] = matrix_and_answers(matrix_model(config), strategy, rng, render_panel);
    return {std::move(matrix), std::move(answers), rng};
  }
  const std::optional<Split> known = known_split(variant, split);
  const VariantSpace& space = variant_space(config, variant, known);
  MatrixModel model = matrix_model(config, variant, known);
  // Every variant's answer sets are balanced, confounders and regimes on the 3x3 original tables
  // too (docs/answer-sets.md#balanced-an-exchangeable-answer): only the original is the original's.
  model.balanced_answers = true;
  const PanelImageFn draw = variant.drawable() && space.identity ? render_panel : nullptr;
  auto [matrix, answers] = matrix_and_answers(model, strategy, rng, draw);
  return {std::move(matrix), std::move(answers), rng};
}

Problem generate_problem(ConfigId config, AnswerStrategy strategy, std::uint64_t seed,
                         std::uint64_t k, std::uint64_t attempt) {
  return generate_problem(config, strategy, seed, k, Variant{}, Split::kTrain, attempt);
}

Problem generate_problem(ConfigId config, AnswerStrategy strategy, std::uint64_t seed,
                         std::uint64_t k, const Variant& variant, Split split,
                         std::uint64_t attempt) {
  DrawnProblem drawn = draw_matrix_and_answers(config, strategy, seed, k, variant, split, attempt);
  const int predict = oracle_predict(drawn.matrix, drawn.answers.candidates, drawn.rng);
  Problem problem = assemble_problem(drawn.matrix, std::move(drawn.answers), predict);
  if (variant.is_original()) return problem;
  const std::optional<Split> known = known_split(variant, split);
  problem.variant = variant;
  problem.split = known;
  finish_variant(problem, variant_space(config, variant, known), seed, k, attempt);
  return problem;
}

}  // namespace rave::engine
