#include "tests/engine/support/answer_support.hpp"

#include <algorithm>

#include "engine/model/configuration.hpp"

namespace rave::engine::testing {

RuleGroup rule_group(Rule group0, RuleName type, RuleName size, RuleName color) {
  RuleGroup g;
  g.rules[0] = group0;
  g.rules[1] = Rule{.name = type,
                    .attr = RuleAttr::kType,
                    .value = type == RuleName::kConstant ? 0 : 1,
                    .value_known = true};
  g.rules[2] = Rule{.name = size,
                    .attr = RuleAttr::kSize,
                    .value = size == RuleName::kConstant ? 0 : 1,
                    .value_known = true};
  g.rules[3] = Rule{.name = color,
                    .attr = RuleAttr::kColor,
                    .value = color == RuleName::kConstant ? 0 : 1,
                    .value_known = true};
  return g;
}

RuleGroup all_constant() {
  return rule_group(Rule{.name = RuleName::kConstant,
                         .attr = RuleAttr::kNumberPosition,
                         .value = 0,
                         .value_known = true},
                    RuleName::kConstant, RuleName::kConstant, RuleName::kConstant);
}

ComponentPanel component(int uniformity, std::vector<Entity> entities) {
  return ComponentPanel{
      .uniformity = uniformity, .entities = std::move(entities), .confounders = {}};
}

Matrix hand_matrix(ConfigId id, std::vector<RuleGroup> rules, std::vector<ComponentPanel> answer) {
  const Configuration& config = configuration(id);
  Matrix m;
  m.config = id;
  m.rules = std::move(rules);
  for (const ComponentSpec& c : config.components)
    m.narrowed.push_back(original_constraints(c.layout));
  Panel panel{std::move(answer)};
  std::fill(m.panels.begin(), m.panels.end(), panel);
  return m;
}

std::set<Attr> component_diff(const ComponentPanel& a, const ComponentPanel& b) {
  if (a.entities.size() != b.entities.size()) return {Attr::kNumber};
  std::set<Attr> out;
  std::vector<int> slots_a, slots_b;
  for (std::size_t i = 0; i < a.entities.size(); ++i) {
    const Entity& x = a.entities[i];
    const Entity& y = b.entities[i];
    slots_a.push_back(x.slot);
    slots_b.push_back(y.slot);
    if (x.type != y.type) out.insert(Attr::kType);
    if (x.size != y.size) out.insert(Attr::kSize);
    if (x.color != y.color) out.insert(Attr::kColor);
    if (x.angle != y.angle) out.insert(Attr::kAngle);
  }
  std::sort(slots_a.begin(), slots_a.end());
  std::sort(slots_b.begin(), slots_b.end());
  if (slots_a != slots_b) out.insert(Attr::kPosition);
  return out;
}

std::set<std::pair<int, Attr>> panel_diff(const Panel& a, const Panel& b) {
  std::set<std::pair<int, Attr>> out;
  for (std::size_t c = 0; c < a.components.size(); ++c)
    for (Attr attr : component_diff(a.components[c], b.components[c]))
      out.insert({static_cast<int>(c), attr});
  return out;
}

std::vector<Matrix> sample_matrices(ConfigId id, int count, std::uint64_t seed) {
  std::vector<Matrix> out;
  for (int k = 0; k < count; ++k) {
    Rng rng = Rng::for_problem(seed, config_index(id), static_cast<std::uint64_t>(k));
    out.push_back(sample_matrix(id, rng));
  }
  return out;
}

}  // namespace rave::engine::testing
