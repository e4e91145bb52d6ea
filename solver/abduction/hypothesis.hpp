#pragma once
// The rule hypotheses the abductive solver considers for one component (docs/solver.md#posterior):
// every (rule, parameter) pair of docs/rules.md#rule-table that is valid for the layout
// (#narrowing), with its accepted prior (#sampling-and-pruning) and the narrowed range the
// generator samples from. Built once per configuration.
//
//   const LayoutModel& m = layout_model(ConfigId::kDistributeFour, 0);
//   for (const Hypothesis& h : m.group0) ...    // 13 valid Number/Position hypotheses
//   HypothesisMask allowed = allowed_by(m, problem.rules[0]);   // --use-rules
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"

namespace rave::solver {

/// Entity attributes in the solver's order: the three rule-governed ones, then Angle
/// (docs/rules.md#noise).
enum EntityAttr : int { kType = 0, kSize = 1, kColor = 2, kAngle = 3 };
inline constexpr int kRuleAttrs = 3;  ///< Type, Size, Color
inline constexpr int kMaxSlots = 9;

/// How a group-0 rule carries entities from col1 to col2 and col3
/// (docs/rules.md#number-and-position-rules), which decides what a Constant attribute and Angle
/// mean in a non-uniform layout (docs/rules.md#noise, docs/solver.md#details-that-decide).
enum class Carry {
  kSlot,   ///< Constant: the same entities on the same slots
  kShift,  ///< Progression Position: the entity on slot s moves to (s + v) mod n
  kMove,   ///< Distribute_Three Position: the entities keep their values on the row's next slot
           ///< set (compared as multisets: the picture does not say which entity went where)
  kRegenerate,  ///< Number rules, Arithmetic Position: entities are redrawn (noise when
                ///< non-uniform)
};

/// One rule with its parameter, prior and narrowed sampling range.
struct Hypothesis {
  engine::Rule rule;  ///< name, attr, parameter (value_known)
  double log_prior =
      0;  ///< log P(rule) under the accepted distribution of docs/rules.md#sampling-and-pruning
  engine::Range range;  ///< narrowed range: Number levels for group 0, the attribute's levels else
};

/// The valid hypotheses of one component's layout.
struct LayoutModel {
  engine::ConfigId config = engine::ConfigId::kCenterSingle;
  int component = 0;
  std::string_view name;                ///< component name ("Grid", "Out", "In", ...)
  int slots = 1;                        ///< slot count n
  engine::Range number;                 ///< original Number levels
  std::array<engine::Range, 4> ranges;  ///< original Type, Size, Color, Angle levels
  std::vector<Hypothesis> group0;       ///< Number/Position rules
  std::array<std::vector<Hypothesis>, kRuleAttrs> entity;  ///< Type, Size, Color rules
  std::array<int, kRuleAttrs>
      constant{};  ///< index of the (single) Constant in entity[a], -1 if none
};

/// The model of component `component` of `config` (built once, thread-safe).
const LayoutModel& layout_model(engine::ConfigId config, int component);

/// Bit i set: hypothesis i of a list is allowed. kAll allows every hypothesis.
using HypothesisMask = std::uint32_t;
inline constexpr HypothesisMask kAllHypotheses = ~HypothesisMask{0};

/// Which hypotheses a component may use: everything, or (--use-rules) only those whose rule name
/// and attr equal the rule group read from the file (parameters are still abduced).
struct AllowedHypotheses {
  HypothesisMask group0 = kAllHypotheses;
  std::array<HypothesisMask, kRuleAttrs> entity{kAllHypotheses, kAllHypotheses, kAllHypotheses};
};
/// The hypotheses of `model` that carry the rule names of `rules`.
AllowedHypotheses allowed_by(const LayoutModel& model, const engine::RuleGroup& rules);
/// Throws InputError (place Data/Rules) unless `problem` names one rule group per component.
void require_rule_names(const engine::Problem& problem);
/// What component `component` of `problem` may use: everything, or with `use_rules` the names of
/// its rule group. Throws InputError (place "Data/Rules") when `use_rules` and the problem's rules
/// are unknown (a file without a Rules element).
AllowedHypotheses allowed_in(const engine::Problem& problem, int component,
                             const LayoutModel& model, bool use_rules);

/// The carry of a group-0 rule.
Carry carry_of(const engine::Rule& group0_rule);
/// True when a group-0 rule draws fresh slot sets for col2/col3 (only the count is predicted).
bool predicts_count_only(const engine::Rule& group0_rule);

/// "Number Progression +1", "Number/Position Constant", "Size Arithmetic -", "Type
/// Distribute_Three".
std::string rule_text(const engine::Rule& rule);

}  // namespace rave::solver
