#pragma once
// Layout constraints and their narrowing by rules (docs/rules.md#narrowing). The generator samples
// the first panel from the *narrowed* ranges; answer sets use the *original* ranges of the
// configuration (LayoutSpec). prune() is the grammar-pruning step of rule sampling
// (docs/rules.md#sampling-and-pruning).
// On an N x N matrix (`grid`, docs/variants.md) the ranges narrow so that the rule holds over N
// columns: Progression by (N-1)|v|, Arithmetic over N-1 operands, Distribute_N needs N levels (or
// N slot sets); grid 3 is the spec's table.
//
//   auto narrowed = prune(configuration(id), rules);   // nullopt: some range became empty
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/model/attributes.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"
#include "engine/model/variant.hpp"

namespace rave::engine {

/// The level ranges a layout samples from.
struct LayoutConstraints {
  Range number;
  Range type, size, color, angle;
  Range uniformity = kUniformityRange;
  friend bool operator==(const LayoutConstraints&, const LayoutConstraints&) = default;
};

/// Narrows `constraints` in place by one rule of group `group` (0 Number/Position, 1 Type, 2 Size,
/// 3 Color) for an N x N matrix; false when the rule is invalid for the layout or its range becomes
/// empty (spec 4.3). narrow() applies it to the four rules of a group in order.
bool narrow_rule(int group, const Rule& rule, LayoutConstraints& constraints,
                 int grid = kDefaultGrid);
/// The original (pre-pruning) constraints of a layout.
LayoutConstraints original_constraints(const LayoutSpec& layout);
/// Narrows `original` by one component's rule group; nullopt when a range becomes empty or a rule
/// is invalid for the layout (spec 4.3).
std::optional<LayoutConstraints> narrow(const LayoutSpec& layout, const LayoutConstraints& original,
                                        const RuleGroup& rules, int grid = kDefaultGrid);
/// Narrowed constraints of every component, or nullopt when the rules do not fit the configuration
/// (rule count differs from the component count, or narrow() fails for a component).
std::optional<std::vector<LayoutConstraints>> prune(const Configuration& config,
                                                    const std::vector<RuleGroup>& rules,
                                                    int grid = kDefaultGrid);

/// The parameters a rule takes, in the rule table's order (docs/rules.md): Progression steps
/// {-2, -1, +1, +2}, Arithmetic signs {+1, -1}, and {0} for Constant and Distribute_Three.
std::span<const int> rule_parameters(RuleName name);
/// Why `rule` cannot be rule `group` (0 Number/Position, 1 Type, 2 Size, 3 Color) of a component
/// laid out as `layout`: no such row in the rule table, a parameter the rule does not take, or a
/// rule the layout's level ranges cannot hold (docs/rules.md, e.g. any Number rule on a single-slot
/// layout); empty when it can be. A rule whose value is unknown fits when one of its parameters
/// does.
std::string rule_defect(int group, const Rule& rule, const LayoutSpec& layout);

}  // namespace rave::engine
