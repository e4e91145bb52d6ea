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
        entity{internal::EntityRule(group.rules[1], frame), internal::EntityRule(group.rules[2], frame),
               internal::EntityRule(group.rules[3], frame)} {}
};

std::vector<ComponentFrame> frames_of(const Configuration& config,
                                      const std::vector<LayoutConstraints>& narrowed) {
  std::vector<ComponentFrame> frames;
  for (std::size_t i = 0; i < narrowed.size(); ++i)
    frames.push_back(ComponentFrame{
        .slot_count = static_cast<int>(config.components[i].layout.slots.size()),
        .ranges = narrowed[i]});
  return frames;
}

// docs/rules.md#the-first-panel: every component samples Number, Position, Uniformity, then its
// entities.
Panel first_panel(std::span<const ComponentFrame> frames, Rng& rng) {
  Panel panel;
  for (const ComponentFrame& frame : frames) panel.components.push_back(internal::sample_layout(frame, rng));
  return panel;
}

// docs/rules.md#rows steps 1-4 for one row whose col1 is `row[0]`: group 0 builds col2 from col1
// and col3 from col2, then the entity rules run col1 -> col2 (R1, R2, R3), then col2 -> col3.
// Components are independent, so each writes only its own ComponentPanel of the three panels.
void apply_row(std::span<Panel, 3> row, std::vector<ComponentRules>& rules, Rng& rng) {
  row[1].components.assign(rules.size(), ComponentPanel{});
  row[2].components.assign(rules.size(), ComponentPanel{});
  for (std::size_t l = 0; l < rules.size(); ++l) {
    ComponentPanel& col1 = row[0].components[l];
    ComponentPanel col2 = rules[l].number_position.apply(col1, rng);
    ComponentPanel col3 = rules[l].number_position.apply(col2, rng);
    for (auto& rule : rules[l].entity) rule.apply(col1, col2, rng);
    for (auto& rule : rules[l].entity) rule.apply(col2, col3, rng);
    row[1].components[l] = std::move(col2);
    row[2].components[l] = std::move(col3);
  }
}

// Rows 1-3 (docs/rules.md#rows): row 1 col1 is the first panel; rows 2 and 3 start from it
// resampled (Number, Position, entities redrawn; Uniformity kept).
void sample_rows(const Configuration& config, Matrix& matrix, Rng& rng) {
  const std::vector<ComponentFrame> frames = frames_of(config, matrix.narrowed);
  std::vector<ComponentRules> rules;
  rules.reserve(frames.size());
  for (std::size_t l = 0; l < frames.size(); ++l) rules.emplace_back(matrix.rules[l], frames[l]);
  const Panel start = first_panel(frames, rng);
  for (std::size_t r = 0; r < 3; ++r) {
    std::span<Panel, 3> row(matrix.panels.data() + 3 * r, 3);
    row[0] = start;
    if (r > 0)
      for (std::size_t l = 0; l < frames.size(); ++l)
        internal::resample_layout(row[0].components[l], frames[l], rng);
    apply_row(row, rules, rng);
  }
}

}  // namespace

Matrix sample_matrix(ConfigId id, Rng& rng) {
  const Configuration& config = configuration(id);
  Matrix matrix;
  matrix.config = id;
  matrix.rules = sample_rules(config, rng, matrix.narrowed, matrix.rule_tries);
  sample_rows(config, matrix, rng);
  return matrix;
}

Matrix sample_matrix(ConfigId id, const std::vector<RuleGroup>& rules, Rng& rng) {
  const Configuration& config = configuration(id);
  auto narrowed = prune(config, rules);
  RAVE_CHECK(narrowed.has_value(), "sample_matrix: the rules do not fit " + std::string(config.folder));
  Matrix matrix;
  matrix.config = id;
  matrix.rules = rules;
  matrix.narrowed = std::move(*narrowed);
  sample_rows(config, matrix, rng);
  return matrix;
}

}  // namespace rave::engine
