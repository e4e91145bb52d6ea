#include "engine/rules/oracle.hpp"

#include <algorithm>
#include <vector>

#include "common/error.hpp"

namespace rave::engine {
namespace {

// Row 3 of one component as the original solver sees it: r1 = row 3 col 1, r2 = row 3 col 2,
// c = the candidate; `truth` is the matrix's own row 3 col 3, which with r1 and r2 gives the
// Distribute_Three third-row triple the original reads from the rule's hidden state.
struct RowThree {
  const ComponentPanel& r1;
  const ComponentPanel& r2;
  const ComponentPanel& c;
  const ComponentPanel& truth;
};

std::vector<int> slot_set(const ComponentPanel& panel) {
  std::vector<int> slots;
  for (const Entity& e : panel.entities) slots.push_back(e.slot);
  std::sort(slots.begin(), slots.end());
  return slots;
}

std::vector<int> shifted_set(const ComponentPanel& panel, int v, int slot_count) {
  std::vector<int> slots;
  for (const Entity& e : panel.entities) slots.push_back(((e.slot + v) % slot_count + slot_count) % slot_count);
  std::sort(slots.begin(), slots.end());
  return slots;
}

int count(const ComponentPanel& p) { return static_cast<int>(p.entities.size()); }

bool set_arithmetic(const RowThree& row, int sign) {
  const auto a = slot_set(row.r1);
  const auto b = slot_set(row.r2);
  std::vector<int> out;
  if (sign > 0)
    std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  else
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return slot_set(row.c) == out;
}

// docs/rules.md#the-original-solver, group 0.
bool check_number_position(const Rule& rule, const RowThree& row, int slot_count) {
  const bool on_number = rule.attr == RuleAttr::kNumber;
  switch (rule.name) {
    case RuleName::kConstant:
      return slot_set(row.c) == slot_set(row.r1) && slot_set(row.c) == slot_set(row.r2);
    case RuleName::kProgression:
      if (on_number) return 2 * row.r2.number_level() == row.r1.number_level() + row.c.number_level();
      return shifted_set(row.r1, rule.value, slot_count) == slot_set(row.r2) &&
             shifted_set(row.r2, rule.value, slot_count) == slot_set(row.c);
    case RuleName::kArithmetic:
      if (on_number)
        return count(row.c) == (rule.value > 0 ? count(row.r1) + count(row.r2) : count(row.r1) - count(row.r2));
      return set_arithmetic(row, rule.value);
    case RuleName::kDistributeThree:
      if (on_number) return row.c.number_level() == row.truth.number_level();
      return slot_set(row.c) == slot_set(row.truth);
  }
  return false;
}

bool all_equal(const ComponentPanel& panel, int Entity::*x) {
  return std::all_of(panel.entities.begin(), panel.entities.end(),
                     [&](const Entity& e) { return e.*x == panel.entities.front().*x; });
}

// docs/rules.md#the-original-solver, entity Constant: uniform -> one value equal to r2's;
// non-uniform with equal counts -> noise under a regenerating group 0, else entity-by-entity copies
// of r2; unequal counts -> pass.
bool check_constant(const RowThree& row, int Entity::*x, bool regenerate) {
  if (row.c.uniformity == kUniformLevel)
    return all_equal(row.c, x) && row.c.entities.front().*x == row.r2.entities.front().*x;
  if (count(row.r1) != count(row.r2) || count(row.r2) != count(row.c)) return true;
  if (regenerate) return true;
  for (std::size_t i = 0; i < row.c.entities.size(); ++i)
    if (row.c.entities[i].*x != row.r2.entities[i].*x) return false;
  return true;
}

// docs/rules.md#the-original-solver, entity rules. Arithmetic is on raw levels for Color, 1-based
// (+-1) otherwise.
bool check_entity(const Rule& rule, int Entity::*x, const RowThree& row, bool regenerate) {
  if (rule.name == RuleName::kConstant) return check_constant(row, x, regenerate);
  if (!all_equal(row.c, x)) return false;
  const int l1 = row.r1.entities.front().*x;
  const int l2 = row.r2.entities.front().*x;
  const int lc = row.c.entities.front().*x;
  switch (rule.name) {
    case RuleName::kProgression: return 2 * l2 == l1 + lc;
    case RuleName::kArithmetic: {
      const int offset = rule.attr == RuleAttr::kColor ? 0 : 1;
      return lc == (rule.value > 0 ? l1 + l2 + offset : l1 - l2 - offset);
    }
    case RuleName::kDistributeThree: return lc == row.truth.entities.front().*x;
    case RuleName::kConstant: break;
  }
  return false;
}

constexpr int Entity::*kEntityAttrs[3] = {&Entity::type, &Entity::size, &Entity::color};

}  // namespace

int oracle_score(const Matrix& matrix, const Panel& candidate) {
  const Configuration& config = configuration(matrix.config);
  RAVE_CHECK(candidate.components.size() == matrix.rules.size(), "candidate has the wrong component count");
  int score = 0;
  for (std::size_t l = 0; l < matrix.rules.size(); ++l) {
    const RowThree row{.r1 = matrix.panels[6].components[l], .r2 = matrix.panels[7].components[l], .c = candidate.components[l], .truth = matrix.panels[8].components[l]};
    RAVE_CHECK(!row.r1.entities.empty() && !row.r2.entities.empty() && !row.c.entities.empty(),
               "every panel holds at least one entity");
    const auto& rules = matrix.rules[l].rules;
    RAVE_CHECK(rules[0].value_known, "the oracle needs the rules' parameters");
    const int slot_count = static_cast<int>(config.components[l].layout.slots.size());
    score += check_number_position(rules[0], row, slot_count) ? 1 : 0;
    const bool regenerate = rules[0].attr == RuleAttr::kNumber || rules[0].name == RuleName::kArithmetic;
    for (std::size_t g = 1; g < 4; ++g)
      score += check_entity(rules[g], kEntityAttrs[g - 1], row, regenerate) ? 1 : 0;
  }
  return score;
}

int oracle_predict(const Matrix& matrix, const std::array<Panel, 8>& candidates, Rng& rng) {
  std::array<int, 8> scores{};
  for (std::size_t i = 0; i < candidates.size(); ++i) scores[i] = oracle_score(matrix, candidates[i]);
  const int best = *std::max_element(scores.begin(), scores.end());
  std::vector<int> tied;
  for (std::size_t i = 0; i < scores.size(); ++i)
    if (scores[i] == best) tied.push_back(static_cast<int>(i));
  return tied[static_cast<std::size_t>(rng.below(static_cast<int>(tied.size())))];
}

}  // namespace rave::engine
