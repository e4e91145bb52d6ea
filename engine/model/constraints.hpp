#pragma once
// Layout constraints and their narrowing by rules (docs/rules.md#narrowing). The generator samples
// the first panel from the *narrowed* ranges; answer sets use the *original* ranges of the
// configuration (LayoutSpec). prune() is the grammar-pruning step of rule sampling
// (docs/rules.md#sampling-and-pruning).
//
//   auto narrowed = prune(configuration(id), rules);   // nullopt: some range became empty
#include <optional>
#include <vector>

#include "engine/model/attributes.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine {

/// The level ranges a layout samples from.
struct LayoutConstraints {
  Range number;
  Range type, size, color, angle;
  Range uniformity = kUniformityRange;
  friend bool operator==(const LayoutConstraints&, const LayoutConstraints&) = default;
};

/// Narrows `constraints` in place by one rule of group `group` (0 Number/Position, 1 Type, 2 Size,
/// 3 Color); false when the rule is invalid for the layout or its range becomes empty
/// (docs/rules.md#narrowing). narrow() applies it to the four rules of a group in order.
bool narrow_rule(int group, const Rule& rule, LayoutConstraints& constraints);
/// The original (pre-pruning) constraints of a layout.
LayoutConstraints original_constraints(const LayoutSpec& layout);
/// Narrows `original` by one component's rule group; nullopt when a range becomes empty or a rule
/// is invalid for the layout (docs/rules.md#narrowing).
std::optional<LayoutConstraints> narrow(const LayoutSpec& layout, const LayoutConstraints& original,
                                        const RuleGroup& rules);
/// Narrowed constraints of every component, or nullopt when the rules do not fit the configuration
/// (rule count differs from the component count, or narrow() fails for a component).
std::optional<std::vector<LayoutConstraints>> prune(const Configuration& config,
                                                    const std::vector<RuleGroup>& rules);

}  // namespace rave::engine
