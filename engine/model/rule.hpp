#pragma once
// The rules of the A-SIG (spec/raven.md 4.1): a rule name, the attribute it governs and its
// parameter, and the four rules of one component. Problems carry them (engine/model/problem.hpp),
// the sampler draws them (engine/rules), variants hold some out (engine/model/variant.hpp).
//
//   Rule r{.name = RuleName::kProgression, .attr = RuleAttr::kSize, .value = -1};
//   rule_name_text(r.name) == "Progression";
#include <array>
#include <optional>
#include <string_view>

namespace rave::engine {

/// Rule names (spec/raven.md 4.1), spelled as in the XML. kDistributeThree is Distribute_N on an
/// N x N matrix (docs/variants.md); files keep the original's name at every N.
enum class RuleName { kConstant, kProgression, kArithmetic, kDistributeThree };
/// What a rule governs; kNumberPosition only for group-0 Constant.
enum class RuleAttr { kNumberPosition, kNumber, kPosition, kType, kSize, kColor };

std::string_view rule_name_text(RuleName name);  ///< "Distribute_Three", ...
std::string_view rule_attr_text(RuleAttr attr);  ///< "Number/Position", ...
std::optional<RuleName> parse_rule_name(std::string_view text);
std::optional<RuleAttr> parse_rule_attr(std::string_view text);

/// One rule with its parameter. `value` is the progression step (+-1, +-2) or the arithmetic sign
/// (+1 add / union, -1 subtract / difference), 0 for parameterless rules. Files do not store it
/// (spec 12.5): `value_known` is false for rules read from XML.
struct Rule {
  RuleName name = RuleName::kConstant;
  RuleAttr attr = RuleAttr::kNumberPosition;
  int value = 0;
  bool value_known = true;
  friend bool operator==(const Rule&, const Rule&) = default;
};

/// The four rules of one component: [0] Number/Position, [1] Type, [2] Size, [3] Color.
struct RuleGroup {
  std::array<Rule, 4> rules;
  friend bool operator==(const RuleGroup&, const RuleGroup&) = default;
};

/// Whether `attr` is what the rule at `position` of a group governs: Number/Position, Number or
/// Position at 0, then Type, Size and Color (spec/raven.md 4.1).
bool rule_attr_fits(std::size_t position, RuleAttr attr);

}  // namespace rave::engine
