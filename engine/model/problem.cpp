#include "engine/model/problem.hpp"

#include "common/error.hpp"

namespace rave::engine {
namespace {

constexpr std::array<std::string_view, 4> kRuleNames{"Constant", "Progression", "Arithmetic",
                                                     "Distribute_Three"};
constexpr std::array<std::string_view, 6> kRuleAttrs{"Number/Position", "Number", "Position",
                                                     "Type",            "Size",   "Color"};

template <class Enum, std::size_t N>
std::optional<Enum> find_text(const std::array<std::string_view, N>& table, std::string_view text) {
  for (std::size_t i = 0; i < N; ++i)
    if (table[i] == text) return static_cast<Enum>(i);
  return std::nullopt;
}

// meta_matrix columns (docs/format.md#npz): 0..3 rule name, 4 Number, 5 Position, 6 Type, 7 Size, 8
// Color.
void set_attr_columns(std::array<std::uint8_t, 9>& row, RuleAttr attr) {
  switch (attr) {
    case RuleAttr::kNumberPosition: row[4] = row[5] = 1; break;
    case RuleAttr::kNumber: row[4] = 1; break;
    case RuleAttr::kPosition: row[5] = 1; break;
    case RuleAttr::kType: row[6] = 1; break;
    case RuleAttr::kSize: row[7] = 1; break;
    case RuleAttr::kColor: row[8] = 1; break;
  }
}

}  // namespace

std::string_view rule_name_text(RuleName name) { return kRuleNames[static_cast<std::size_t>(name)]; }
std::string_view rule_attr_text(RuleAttr attr) { return kRuleAttrs[static_cast<std::size_t>(attr)]; }
std::optional<RuleName> parse_rule_name(std::string_view text) {
  return find_text<RuleName>(kRuleNames, text);
}
std::optional<RuleAttr> parse_rule_attr(std::string_view text) {
  return find_text<RuleAttr>(kRuleAttrs, text);
}

std::array<std::array<std::uint8_t, 9>, 8> meta_matrix(const std::vector<RuleGroup>& rules) {
  RAVE_CHECK(rules.size() <= 2, "at most two rule groups");
  std::array<std::array<std::uint8_t, 9>, 8> matrix{};
  for (std::size_t c = 0; c < rules.size(); ++c)
    for (std::size_t g = 0; g < 4; ++g) {
      auto& row = matrix[4 * c + g];
      const Rule& rule = rules[c].rules[g];
      row[static_cast<std::size_t>(rule.name)] = 1;
      set_attr_columns(row, rule.attr);
    }
  return matrix;
}

std::array<std::uint8_t, 9> meta_target(const std::vector<RuleGroup>& rules) {
  std::array<std::uint8_t, 9> target{};
  for (const auto& row : meta_matrix(rules))
    for (std::size_t i = 0; i < 9; ++i) target[i] |= row[i];
  return target;
}

}  // namespace rave::engine
