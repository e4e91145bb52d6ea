#include "engine/model/rule.hpp"

namespace rave::engine {
namespace {

constexpr std::array<std::string_view, 4> kRuleNames{"Constant", "Progression", "Arithmetic",
                                                     "Distribute_Three"};
constexpr std::array<std::string_view, 6> kRuleAttrs{
    "Number/Position", "Number", "Position", "Type", "Size", "Color"};

template <class Enum, std::size_t N>
std::optional<Enum> find_text(const std::array<std::string_view, N>& table, std::string_view text) {
  for (std::size_t i = 0; i < N; ++i)
    if (table[i] == text) return static_cast<Enum>(i);
  return std::nullopt;
}

}  // namespace

std::string_view rule_name_text(RuleName name) {
  return kRuleNames[static_cast<std::size_t>(name)];
}
std::string_view rule_attr_text(RuleAttr attr) {
  return kRuleAttrs[static_cast<std::size_t>(attr)];
}
std::optional<RuleName> parse_rule_name(std::string_view text) {
  return find_text<RuleName>(kRuleNames, text);
}
std::optional<RuleAttr> parse_rule_attr(std::string_view text) {
  return find_text<RuleAttr>(kRuleAttrs, text);
}

bool rule_attr_fits(std::size_t position, RuleAttr attr) {
  switch (position) {
    case 0:
      return attr == RuleAttr::kNumberPosition || attr == RuleAttr::kNumber ||
             attr == RuleAttr::kPosition;
    case 1: return attr == RuleAttr::kType;
    case 2: return attr == RuleAttr::kSize;
    default: return attr == RuleAttr::kColor;
  }
}

}  // namespace rave::engine
