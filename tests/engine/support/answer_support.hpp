#pragma once
// Helpers for the answer-set and audit tests: hand-built matrices (rules, narrowed constraints and
// an answer panel written out by hand) and attribute-level comparison of two panels.
//
//   Matrix m = hand_matrix(ConfigId::kCenterSingle, {all_constant()},
//                          {component(3, {{0, 2, 3, 4, 3}})});
//   auto diff = component_diff(a.components[0], b.components[0]);  // e.g. {Attr::kType}
#include <set>
#include <utility>
#include <vector>

#include "engine/model/problem.hpp"
#include "engine/rules/matrix.hpp"

namespace rave::engine::testing {

/// Rules the answer-set tests build their matrices from.
inline const Rule kConstantNP{.name = RuleName::kConstant,
                              .attr = RuleAttr::kNumberPosition,
                              .value = 0,
                              .value_known = true};
inline const Rule kProgNumber{
    .name = RuleName::kProgression, .attr = RuleAttr::kNumber, .value = 1, .value_known = true};
inline const Rule kArithPosition{
    .name = RuleName::kArithmetic, .attr = RuleAttr::kPosition, .value = 1, .value_known = true};

/// A rule group from four (name, value) pairs; attributes are Number/Position (or as given), Type,
/// Size, Color in that order.
RuleGroup rule_group(Rule group0, RuleName type, RuleName size, RuleName color);
/// Every rule Constant.
RuleGroup all_constant();
/// A component panel with uniformity level `uniformity` and these entities.
ComponentPanel component(int uniformity, std::vector<Entity> entities);
/// A matrix whose 9 panels are all `answer` (the answer builders only read the answer, the rules
/// and the constraints); narrowed constraints are the configuration's originals.
Matrix hand_matrix(ConfigId id, std::vector<RuleGroup> rules, std::vector<ComponentPanel> answer);

/// Attributes in which two component panels differ: {kNumber} alone when the counts differ;
/// otherwise any of kPosition (slot sets), kType, kSize, kColor (tuples in entity order), kAngle.
std::set<Attr> component_diff(const ComponentPanel& a, const ComponentPanel& b);
/// (component, attribute) pairs in which two panels differ, per component_diff.
std::set<std::pair<int, Attr>> panel_diff(const Panel& a, const Panel& b);

/// `count` matrices of one configuration from seed `seed` (problem streams k = 0..count-1).
std::vector<Matrix> sample_matrices(ConfigId id, int count, std::uint64_t seed);

}  // namespace rave::engine::testing
