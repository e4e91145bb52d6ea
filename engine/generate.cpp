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

Problem generate_problem(ConfigId config, AnswerStrategy strategy, std::uint64_t seed,
                         std::uint64_t k, std::uint64_t attempt) {
  Rng rng = Rng::for_problem(seed, config_index(config), k, attempt);
  const Matrix matrix = sample_matrix(config, rng);
  AnswerSet answers = build_answer_set(matrix, strategy, rng, render_panel);
  const int predict = oracle_predict(matrix, answers.candidates, rng);
  return assemble_problem(matrix, std::move(answers), predict);
}

Problem generate_problem(ConfigId config, AnswerStrategy strategy, std::uint64_t seed,
                         std::uint64_t k, const Variant& variant, Split split,
                         std::uint64_t attempt) {
  if (variant.is_original()) return generate_problem(config, strategy, seed, k, attempt);
  const std::optional<Split> known =
      variant.regime == Regime::kNeutral ? std::nullopt : std::optional(split);
  const VariantSpace& space = variant_space(config, variant, known);
  Rng rng = Rng::for_problem(seed, config_index(config), k, attempt);
  Matrix matrix = sample_matrix(matrix_model(config, variant, known), rng);
  // Every variant's answer sets are balanced, confounders and regimes on the 3x3 original tables
  // too (docs/answer-sets.md#balanced-an-exchangeable-answer): only the original is the original's.
  matrix.balanced_answers = true;
  const PanelImageFn draw = variant.drawable() && space.identity ? render_panel : nullptr;
  AnswerSet answers = build_answer_set(matrix, strategy, rng, draw);
  const int predict = oracle_predict(matrix, answers.candidates, rng);
  Problem problem = assemble_problem(matrix, std::move(answers), predict);
  problem.variant = variant;
  problem.split = known;
  finish_variant(problem, space, seed, k, attempt);
  return problem;
}

}  // namespace rave::engine
