#include "engine/rules/matrix.hpp"

#include <span>

#include "common/error.hpp"
#include "engine/rules/internal/entity_rules.hpp"
#include "engine/rules/internal/layout_sampling.hpp"
#include "engine/rules/internal/number_position_rules.hpp"

namespace rave::engine {
namespace {

using internal::ComponentFrame;

// The four stateful rule objects of one component; they live for the whole problem
// (docs/rules.md#rows).
struct ComponentRules {
  internal::NumberPositionRule number_position;
  std::array<internal::EntityRule, 3> entity;

  ComponentRules(const RuleGroup& group, const ComponentFrame& frame)
      : number_position(group.rules[0], frame),
        entity{internal::EntityRule(group.rules[1], frame),
               internal::EntityRule(group.rules[2], frame),
               internal::EntityRule(group.rules[3], frame)} {}
};

std::vector<ComponentFrame> frames_of(const Configuration& config,
                                      const std::vector<LayoutConstraints>& narrowed, int grid) {
  std::vector<ComponentFrame> frames;
  for (std::size_t i = 0; i < narrowed.size(); ++i) {
    const LayoutSpec& layout = config.components[i].layout;
    frames.push_back(ComponentFrame{.slot_count = static_cast<int>(layout.slots.size()),
                                    .ranges = narrowed[i],
                                    .original = original_constraints(layout),
                                    .grid = grid});
  }
  return frames;
}

// Spec 5: every component samples Number, Position, Uniformity, then its entities.
Panel first_panel(std::span<const ComponentFrame> frames, Rng& rng) {
  Panel panel;
  for (const ComponentFrame& frame : frames)
    panel.components.push_back(internal::sample_layout(frame, rng));
  return panel;
}

// Spec 6.1 steps 1-4 for one row whose col1 is `row[0]`, generalized to N columns: group 0 builds
// col2 from col1, col3 from col2, ..., then the entity rules run col1 -> col2 (R1, R2, R3), then
// col2 -> col3, and so on. Components are independent, so each writes only its own ComponentPanel
// of the row's panels.
void apply_row(std::span<Panel> row, std::vector<ComponentRules>& rules, Rng& rng) {
  const std::size_t n = row.size();
  for (std::size_t c = 1; c < n; ++c) row[c].components.assign(rules.size(), ComponentPanel{});
  std::vector<ComponentPanel> later(n - 1);  // col2 .. colN of one component
  for (std::size_t l = 0; l < rules.size(); ++l) {
    auto column = [&](std::size_t c) -> ComponentPanel& {
      return c == 0 ? row[0].components[l] : later[c - 1];
    };
    for (std::size_t c = 1; c < n; ++c)
      later[c - 1] = rules[l].number_position.apply(column(c - 1), rng);
    for (std::size_t c = 0; c + 1 < n; ++c)
      for (auto& rule : rules[l].entity) rule.apply(column(c), column(c + 1), rng);
    for (std::size_t c = 1; c < n; ++c) row[c].components[l] = std::move(later[c - 1]);
  }
}

// Rows 1..N (spec 6.1): row 1 col1 is the first panel; later rows start from it resampled
// (Number, Position, entities redrawn; Uniformity kept).
void sample_rows(const Configuration& config, Matrix& matrix, Rng& rng) {
  const auto n = static_cast<std::size_t>(matrix.grid);
  const std::vector<ComponentFrame> frames = frames_of(config, matrix.narrowed, matrix.grid);
  std::vector<ComponentRules> rules;
  rules.reserve(frames.size());
  for (std::size_t l = 0; l < frames.size(); ++l) rules.emplace_back(matrix.rules[l], frames[l]);
  const Panel start = first_panel(frames, rng);
  matrix.panels.resize(n * n);
  for (std::size_t r = 0; r < n; ++r) {
    std::span<Panel> row(matrix.panels.data() + n * r, n);
    row[0] = start;
    if (r > 0)
      for (std::size_t l = 0; l < frames.size(); ++l)
        internal::resample_layout(row[0].components[l], frames[l], rng);
    apply_row(row, rules, rng);
  }
}

Matrix empty_matrix(const MatrixModel& model) {
  Matrix matrix;
  matrix.config = model.id;
  matrix.spec = model.config;
  matrix.grid = model.grid;
  matrix.balanced_answers = model.balanced_answers;
  matrix.table = model.rules;
  return matrix;
}

}  // namespace

Matrix sample_matrix(const MatrixModel& model, Rng& rng) {
  Matrix matrix = empty_matrix(model);
  matrix.rules = sample_rules(model, rng, matrix.narrowed, matrix.rule_tries);
  sample_rows(*model.config, matrix, rng);
  return matrix;
}

Matrix sample_matrix(ConfigId id, Rng& rng) { return sample_matrix(matrix_model(id), rng); }

Matrix sample_matrix(const MatrixModel& model, const std::vector<RuleGroup>& rules, Rng& rng) {
  auto narrowed = prune(*model.config, rules, model.grid);
  RAVE_CHECK(narrowed.has_value(),
             "sample_matrix: the rules do not fit " + std::string(model.config->folder));
  Matrix matrix = empty_matrix(model);
  matrix.rules = rules;
  matrix.narrowed = std::move(*narrowed);
  sample_rows(*model.config, matrix, rng);
  return matrix;
}

Matrix sample_matrix(ConfigId id, const std::vector<RuleGroup>& rules, Rng& rng) {
  return sample_matrix(matrix_model(id), rules, rng);
}

}  // namespace rave::engine
