#include "engine/rules/oracle.hpp"

#include <algorithm>
#include <vector>

#include "common/error.hpp"

namespace rave::engine {
namespace {

// The last row of one component as the original solver sees it, generalized to N columns: `cols`
// are row N's first N-1 panels, `c` the candidate; `truth` is the matrix's own last panel, which
// gives the Distribute_N last-row values the original reads from the rule's hidden state.
struct LastRow {
  std::vector<const ComponentPanel*> cols;
  const ComponentPanel& c;
  const ComponentPanel& truth;
  const ComponentPanel& first() const { return *cols.front(); }
  const ComponentPanel& last() const { return *cols.back(); }
};

std::vector<int> slot_set(const ComponentPanel& panel) {
  std::vector<int> slots;
  for (const Entity& e : panel.entities) slots.push_back(e.slot);
  std::sort(slots.begin(), slots.end());
  return slots;
}

std::vector<int> shifted_set(const ComponentPanel& panel, int v, int slot_count) {
  std::vector<int> slots;
  for (const Entity& e : panel.entities)
    slots.push_back(((e.slot + v) % slot_count + slot_count) % slot_count);
  std::sort(slots.begin(), slots.end());
  return slots;
}

int count(const ComponentPanel& p) { return static_cast<int>(p.entities.size()); }

// The union (+) or difference (-) of the row's first N-1 slot sets is the candidate's.
bool set_arithmetic(const LastRow& row, int sign) {
  std::vector<int> acc = slot_set(row.first());
  for (std::size_t i = 1; i < row.cols.size(); ++i) {
    const auto b = slot_set(*row.cols[i]);
    std::vector<int> out;
    if (sign > 0)
      std::set_union(acc.begin(), acc.end(), b.begin(), b.end(), std::back_inserter(out));
    else
      std::set_difference(acc.begin(), acc.end(), b.begin(), b.end(), std::back_inserter(out));
    acc = std::move(out);
  }
  return slot_set(row.c) == acc;
}

// The candidate continues the row's arithmetic progression of `value` (the original's
// 2 L(r2) = L(r1) + L(c) at N = 3).
bool continues(int before_last, int last, int candidate) {
  return candidate - last == last - before_last;
}

// The sum (+) or difference (-) of the row's first N-1 values (with `unit` added to each term:
// 1-based levels or counts) is the candidate's.
bool sums(const LastRow& row, int sign, int unit, int (*value)(const ComponentPanel&),
          const ComponentPanel& c) {
  int acc = value(row.first()) + unit;
  for (std::size_t i = 1; i < row.cols.size(); ++i) acc += sign * (value(*row.cols[i]) + unit);
  return value(c) + unit == acc;
}

bool shifts_along(const LastRow& row, int v, int slot_count) {
  for (std::size_t i = 0; i < row.cols.size(); ++i) {
    const ComponentPanel& next = i + 1 < row.cols.size() ? *row.cols[i + 1] : row.c;
    if (shifted_set(*row.cols[i], v, slot_count) != slot_set(next)) return false;
  }
  return true;
}

int level_of(const ComponentPanel& p) { return p.number_level(); }

// docs/rules.md#the-original-solver, group 0.
bool check_number_position(const Rule& rule, const LastRow& row, int slot_count) {
  const bool on_number = rule.attr == RuleAttr::kNumber;
  switch (rule.name) {
    case RuleName::kConstant:
      return std::all_of(row.cols.begin(), row.cols.end(),
                         [&](const ComponentPanel* p) { return slot_set(*p) == slot_set(row.c); });
    case RuleName::kProgression:
      if (on_number) {
        const int before = row.cols.size() > 1 ? row.cols[row.cols.size() - 2]->number_level() : 0;
        return continues(before, row.last().number_level(), row.c.number_level());
      }
      return shifts_along(row, rule.value, slot_count);
    case RuleName::kArithmetic:
      if (on_number)
        return sums(
            row, rule.value, 0, [](const ComponentPanel& p) { return count(p); }, row.c);
      return set_arithmetic(row, rule.value);
    case RuleName::kDistributeThree:
      if (on_number) return level_of(row.c) == level_of(row.truth);
      return slot_set(row.c) == slot_set(row.truth);
  }
  return false;
}

bool all_equal(const ComponentPanel& panel, int Entity::*x) {
  return std::all_of(panel.entities.begin(), panel.entities.end(),
                     [&](const Entity& e) { return e.*x == panel.entities.front().*x; });
}

// Spec 8, entity Constant: uniform -> one value equal to the last column's; non-uniform with equal
// counts along the row -> noise under a regenerating group 0, else entity-by-entity copies of the
// last column; unequal counts -> pass.
bool check_constant(const LastRow& row, int Entity::*x, bool regenerate) {
  const ComponentPanel& last = row.last();
  if (row.c.uniformity == kUniformLevel)
    return all_equal(row.c, x) && row.c.entities.front().*x == last.entities.front().*x;
  for (const ComponentPanel* p : row.cols)
    if (count(*p) != count(row.c)) return true;
  if (regenerate) return true;
  for (std::size_t i = 0; i < row.c.entities.size(); ++i)
    if (row.c.entities[i].*x != last.entities[i].*x) return false;
  return true;
}

// docs/rules.md#the-original-solver, entity rules. Arithmetic is on raw levels for Color, 1-based
// (+-1) otherwise.
bool check_entity(const Rule& rule, int Entity::*x, const LastRow& row, bool regenerate) {
  if (rule.name == RuleName::kConstant) return check_constant(row, x, regenerate);
  if (!all_equal(row.c, x)) return false;
  const auto first_level = [x](const ComponentPanel& p) { return p.entities.front().*x; };
  const int lc = first_level(row.c);
  switch (rule.name) {
    case RuleName::kProgression: {
      const int before = row.cols.size() > 1 ? first_level(*row.cols[row.cols.size() - 2]) : 0;
      return continues(before, first_level(row.last()), lc);
    }
    case RuleName::kArithmetic: {
      const int unit = rule.attr == RuleAttr::kColor ? 0 : 1;
      int acc = first_level(row.first()) + unit;
      for (std::size_t i = 1; i < row.cols.size(); ++i)
        acc += (rule.value > 0 ? 1 : -1) * (first_level(*row.cols[i]) + unit);
      return lc + unit == acc;
    }
    case RuleName::kDistributeThree: return lc == first_level(row.truth);
    case RuleName::kConstant: break;
  }
  return false;
}

constexpr int Entity::*kEntityAttrs[3] = {&Entity::type, &Entity::size, &Entity::color};

}  // namespace

int oracle_score(const Matrix& matrix, const Panel& candidate) {
  const Configuration& config = matrix.configuration();
  RAVE_CHECK(candidate.components.size() == matrix.rules.size(),
             "candidate has the wrong component count");
  const auto n = static_cast<std::size_t>(matrix.grid);
  RAVE_CHECK(matrix.panels.size() == n * n, "a matrix holds N * N panels");
  int score = 0;
  for (std::size_t l = 0; l < matrix.rules.size(); ++l) {
    LastRow row{.cols = {}, .c = candidate.components[l], .truth = matrix.answer().components[l]};
    for (std::size_t i = 0; i + 1 < n; ++i)
      row.cols.push_back(&matrix.panels[n * (n - 1) + i].components[l]);
    RAVE_CHECK(std::none_of(row.cols.begin(), row.cols.end(),
                            [](const ComponentPanel* p) { return p->entities.empty(); }) &&
                   !row.c.entities.empty(),
               "every panel holds at least one entity");
    const auto& rules = matrix.rules[l].rules;
    RAVE_CHECK(rules[0].value_known, "the oracle needs the rules' parameters");
    const int slot_count = static_cast<int>(config.components[l].layout.slots.size());
    score += check_number_position(rules[0], row, slot_count) ? 1 : 0;
    const bool regenerate =
        rules[0].attr == RuleAttr::kNumber || rules[0].name == RuleName::kArithmetic;
    for (std::size_t g = 1; g < 4; ++g)
      score += check_entity(rules[g], kEntityAttrs[g - 1], row, regenerate) ? 1 : 0;
  }
  return score;
}

int oracle_predict(const Matrix& matrix, const std::array<Panel, kCandidates>& candidates,
                   Rng& rng) {
  std::array<int, kCandidates> scores{};
  for (std::size_t i = 0; i < candidates.size(); ++i)
    scores[i] = oracle_score(matrix, candidates[i]);
  const int best = *std::max_element(scores.begin(), scores.end());
  std::vector<int> tied;
  for (std::size_t i = 0; i < scores.size(); ++i)
    if (scores[i] == best) tied.push_back(static_cast<int>(i));
  return tied[static_cast<std::size_t>(rng.below(static_cast<int>(tied.size())))];
}

}  // namespace rave::engine
