#include "engine/model/problem.hpp"

#include "common/error.hpp"

namespace rave::engine {
namespace {

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
