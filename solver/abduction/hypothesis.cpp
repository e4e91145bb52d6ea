#include "solver/abduction/hypothesis.hpp"

#include <cmath>
#include <span>

#include "common/error.hpp"
#include "engine/model/constraints.hpp"
#include "engine/rules/rule_table.hpp"

namespace rave::solver {
namespace {

using engine::Rule;
using engine::RuleAttr;
using engine::RuleName;

engine::RuleGroup constant_group() {
  engine::RuleGroup group;
  group.rules[0] = {RuleName::kConstant, RuleAttr::kNumberPosition, 0, true};
  group.rules[1] = {RuleName::kConstant, RuleAttr::kType, 0, true};
  group.rules[2] = {RuleName::kConstant, RuleAttr::kSize, 0, true};
  group.rules[3] = {RuleName::kConstant, RuleAttr::kColor, 0, true};
  return group;
}

engine::Range narrowed_range(const engine::LayoutConstraints& c, int group) {
  switch (group) {
    case 0: return c.number;
    case 1: return c.type;
    case 2: return c.size;
    default: return c.color;
  }
}

// The accepted prior of docs/rules.md#sampling-and-pruning: within a group each row is equally
// likely, each parameter of a row equally likely; rejection sampling keeps only valid pairs, so the
// prior is renormalised over them (the check factorises per attribute).
std::vector<Hypothesis> valid_hypotheses(const engine::LayoutSpec& layout, int group) {
  static constexpr int kNoParameter[1] = {0};
  const auto original = engine::original_constraints(layout);
  std::vector<Hypothesis> out;
  std::vector<double> weights;
  for (const engine::RuleRow& row : engine::rule_rows(group)) {
    const std::span<const int> values =
        row.params.empty() ? std::span<const int>(kNoParameter) : row.params;
    for (int value : values) {
      engine::RuleGroup rules = constant_group();
      const Rule rule{row.name, row.attr, value, true};
      rules.rules[static_cast<std::size_t>(group)] = rule;
      auto narrowed = engine::narrow(layout, original, rules);
      if (!narrowed) continue;
      out.push_back({rule, 0.0, narrowed_range(*narrowed, group)});
      weights.push_back(engine::rule_prior(group, rule));
    }
  }
  double total = 0;
  for (double w : weights) total += w;
  for (std::size_t i = 0; i < out.size(); ++i) out[i].log_prior = std::log(weights[i] / total);
  return out;
}

LayoutModel build_model(engine::ConfigId config, int component) {
  const auto& spec = engine::configuration(config).components[static_cast<std::size_t>(component)];
  LayoutModel model;
  model.config = config;
  model.component = component;
  model.name = spec.name;
  model.slots = static_cast<int>(spec.layout.slots.size());
  RAVE_CHECK(model.slots >= 1 && model.slots <= kMaxSlots, "layout slot count out of range");
  model.number = spec.layout.number;
  model.ranges = {spec.layout.type, spec.layout.size, spec.layout.color, spec.layout.angle};
  for (const engine::Range& r : model.ranges)
    RAVE_CHECK(r.min >= 0 && r.max <= 14, "levels fit PanelView's 4-bit packing");
  model.group0 = valid_hypotheses(spec.layout, 0);
  for (int a = 0; a < kRuleAttrs; ++a) {
    const auto& list = model.entity[static_cast<std::size_t>(a)] =
        valid_hypotheses(spec.layout, a + 1);
    model.constant[a] = -1;
    for (std::size_t k = 0; k < list.size(); ++k)
      if (list[k].rule.name == RuleName::kConstant) {
        RAVE_CHECK(model.constant[a] < 0, "one Constant hypothesis per attribute");
        model.constant[a] = static_cast<int>(k);
      }
  }
  RAVE_CHECK(model.group0.size() <= 32, "too many group-0 hypotheses for a mask");
  return model;
}

struct ModelTable {
  std::array<std::array<LayoutModel, 2>, engine::kNumConfigs> models;
  ModelTable() {
    for (const auto& config : engine::all_configurations())
      for (std::size_t c = 0; c < config.components.size(); ++c)
        models[static_cast<std::size_t>(engine::config_index(config.id))][c] =
            build_model(config.id, static_cast<int>(c));
  }
};

HypothesisMask mask_matching(const std::vector<Hypothesis>& list, const Rule& rule) {
  HypothesisMask mask = 0;
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i].rule.name == rule.name && list[i].rule.attr == rule.attr)
      mask |= HypothesisMask{1} << i;
  return mask;
}

}  // namespace

const LayoutModel& layout_model(engine::ConfigId config, int component) {
  static const ModelTable table;
  const auto& spec = engine::configuration(config);
  RAVE_CHECK(component >= 0 && component < static_cast<int>(spec.components.size()),
             "component index out of range");
  return table.models[static_cast<std::size_t>(engine::config_index(config))]
                     [static_cast<std::size_t>(component)];
}

AllowedHypotheses allowed_by(const LayoutModel& model, const engine::RuleGroup& rules) {
  AllowedHypotheses allowed;
  allowed.group0 = mask_matching(model.group0, rules.rules[0]);
  for (int a = 0; a < kRuleAttrs; ++a)
    allowed.entity[static_cast<std::size_t>(a)] = mask_matching(
        model.entity[static_cast<std::size_t>(a)], rules.rules[static_cast<std::size_t>(a + 1)]);
  return allowed;
}

void require_rule_names(const engine::Problem& problem) {
  if (problem.rules.size() != engine::configuration(problem.config).components.size())
    throw InputError("", "Data/Rules",
                     problem.rules.empty()
                         ? "the rule names are unknown (no Rules element), so they cannot be used"
                         : "expected one rule group per component");
}

AllowedHypotheses allowed_in(const engine::Problem& problem, int component,
                             const LayoutModel& model, bool use_rules) {
  if (!use_rules) return {};
  require_rule_names(problem);
  return allowed_by(model, problem.rules[static_cast<std::size_t>(component)]);
}

Carry carry_of(const Rule& rule) {
  if (rule.name == RuleName::kConstant) return Carry::kSlot;
  if (rule.attr == RuleAttr::kPosition && rule.name == RuleName::kProgression) return Carry::kShift;
  if (rule.attr == RuleAttr::kPosition && rule.name == RuleName::kDistributeThree)
    return Carry::kMove;
  return Carry::kRegenerate;
}

bool predicts_count_only(const Rule& rule) { return rule.attr == RuleAttr::kNumber; }

std::string rule_text(const Rule& rule) {
  std::string text{engine::rule_attr_text(rule.attr)};
  text += ' ';
  text += engine::rule_name_text(rule.name);
  if (!rule.value_known) return text;
  if (rule.name == RuleName::kProgression)
    text += (rule.value > 0 ? " +" : " -") + std::to_string(std::abs(rule.value));
  else if (rule.name == RuleName::kArithmetic)
    text += rule.value > 0 ? " +" : " -";
  return text;
}

}  // namespace rave::solver
