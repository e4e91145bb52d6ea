#include "solver/grid/grid_rules.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

namespace rave::solver {
namespace {

using engine::RuleName;

// A value of one panel: a count, a slot set or a common level.
using ValueOf = std::function<long(const GridPanel&)>;

// The N values of row `row`, or false when a panel of it is unusable.
bool row_values(const GridComponent& g, int row, int candidate, const ValueOf& value,
                std::vector<long>& out) {
  out.resize(static_cast<std::size_t>(g.grid));
  for (int col = 0; col < g.grid; ++col) {
    const GridPanel& p = g.panel(row, col, candidate);
    if (!p.usable) return false;
    out[static_cast<std::size_t>(col)] = value(p);
  }
  return true;
}

// `step(prev, next)` holds between the values of neighbours in every row.
bool each_step(const GridComponent& g, int candidate, const ValueOf& value,
               const std::function<bool(long, long)>& step) {
  std::vector<long> row;
  for (int r = 0; r < g.grid; ++r) {
    if (!row_values(g, r, candidate, value, row)) return false;
    for (std::size_t c = 0; c + 1 < row.size(); ++c)
      if (!step(row[c], row[c + 1])) return false;
  }
  return true;
}

// The last value of every row is `combine` folded over the first N-1.
bool each_fold(const GridComponent& g, int candidate, const ValueOf& value,
               const std::function<long(long, long)>& combine) {
  std::vector<long> row;
  for (int r = 0; r < g.grid; ++r) {
    if (!row_values(g, r, candidate, value, row)) return false;
    long acc = row[0];
    for (std::size_t c = 1; c + 1 < row.size(); ++c) acc = combine(acc, row[c]);
    if (acc != row.back()) return false;
  }
  return true;
}

// Row 1 holds N distinct values and every row is a different cyclic shift of it (a Latin square).
bool latin_square(const GridComponent& g, int candidate, const ValueOf& value) {
  std::vector<long> first, row;
  if (!row_values(g, 0, candidate, value, first)) return false;
  std::vector<long> sorted = first;
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) return false;
  const auto n = first.size();
  std::vector<bool> used(n, false);
  for (int r = 0; r < g.grid; ++r) {
    if (!row_values(g, r, candidate, value, row)) return false;
    const auto at = std::find(first.begin(), first.end(), row[0]);
    if (at == first.end()) return false;
    const auto shift = static_cast<std::size_t>(at - first.begin());
    for (std::size_t c = 0; c < n; ++c)
      if (row[c] != first[(c + shift) % n]) return false;
    if (used[shift]) return false;
    used[shift] = true;
  }
  return true;
}

std::uint32_t shift_slots(std::uint32_t mask, int v, int n) {
  const int k = ((v % n) + n) % n;
  const std::uint32_t full = (n >= 32) ? ~0u : (1u << n) - 1u;
  return ((mask << k) | (mask >> (n - k))) & full;
}

std::vector<int> shift_levels(const std::vector<int>& by_slot, int v) {
  const auto n = static_cast<int>(by_slot.size());
  std::vector<int> out(by_slot.size(), -1);
  for (int s = 0; s < n; ++s)
    out[static_cast<std::size_t>(((s + v) % n + n) % n)] = by_slot[static_cast<std::size_t>(s)];
  return out;
}

double log_choose(int n, int k) {
  return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0);
}

long count_of(const GridPanel& p) { return p.count; }
long mask_of(const GridPanel& p) { return p.mask; }

// `same(prev, next)` holds between neighbouring panels of every row (all usable).
bool each_panel_step(const GridComponent& g, int candidate,
                     const std::function<bool(const GridPanel&, const GridPanel&)>& same) {
  for (int r = 0; r < g.grid; ++r)
    for (int c = 0; c + 1 < g.grid; ++c) {
      const GridPanel &a = g.panel(r, c, candidate), &b = g.panel(r, c + 1, candidate);
      if (!a.usable || !b.usable || !same(a, b)) return false;
    }
  return true;
}

// Every panel's entities share one level of `attr` (what a non-Constant entity rule makes).
bool all_common(const GridComponent& g, int candidate, int attr) {
  for (int r = 0; r < g.grid; ++r)
    for (int c = 0; c < g.grid; ++c) {
      const GridPanel& p = g.panel(r, c, candidate);
      if (!p.usable || p.common[static_cast<std::size_t>(attr)] == kMixedLevel) return false;
    }
  return true;
}

// The Distribute_N Position carry of one attribute (docs/solver.md#n-x-n-matrices). Every row
// visits the row-1 slot sets in cyclic order, so the move from set i to set i+1 is one fixed
// bijection of their slots (entry j of one position array to entry j of the next) wherever it
// occurs. Which slot went where is not in the picture; a bijection carrying the levels exists
// exactly when the slots of the two sets hold the same multiset of *signatures*, a slot's levels at
// every occurrence.
bool move_holds(std::size_t attr, const GridComponent& g, int candidate) {
  const int n = g.grid;
  std::vector<std::uint32_t> sets(static_cast<std::size_t>(n));
  for (int c = 0; c < n; ++c) sets[static_cast<std::size_t>(c)] = g.panel(0, c, candidate).mask;
  const auto set_at = [&](int r, int c) {
    const auto it = std::find(sets.begin(), sets.end(), g.panel(r, c, candidate).mask);
    return static_cast<int>(it - sets.begin());
  };
  for (int i = 0; i < n; ++i) {
    std::vector<std::pair<int, int>> at;  // (row, col) where set i moves on to set i+1
    for (int r = 0; r < n; ++r)
      for (int c = 0; c + 1 < n; ++c)
        if (set_at(r, c) == i) at.emplace_back(r, c);
    const auto signatures = [&](int dc, std::uint32_t mask) {
      std::vector<std::vector<int>> out;
      for (int s = 0; s < g.slots; ++s) {
        if ((mask >> s & 1u) == 0) continue;
        std::vector<int> sig;
        for (const auto& [r, c] : at)
          sig.push_back(g.panel(r, c + dc, candidate).by_slot[attr][static_cast<std::size_t>(s)]);
        out.push_back(std::move(sig));
      }
      std::sort(out.begin(), out.end());
      return out;
    };
    if (signatures(0, sets[static_cast<std::size_t>(i)]) !=
        signatures(1, sets[static_cast<std::size_t>((i + 1) % n)]))
      return false;
  }
  return true;
}

// A Constant attribute (docs/rules.md#noise): one level per row in a uniform layout; otherwise the
// carried entities keep their levels, and regenerated ones are noise over the layout's range.
bool constant_holds(int attr, const GridCarry& carry, const GridComponent& g, int candidate,
                    double& log_lik) {
  const auto a = static_cast<std::size_t>(attr);
  if (g.uniform)
    return all_common(g, candidate, attr) &&
           each_panel_step(g, candidate, [a](const GridPanel& x, const GridPanel& y) {
             return x.common[a] == y.common[a];
           });
  switch (carry.kind) {
    case GridCarry::kSlot:
      return each_panel_step(g, candidate, [a](const GridPanel& x, const GridPanel& y) {
        return x.by_slot[a] == y.by_slot[a];
      });
    case GridCarry::kShift:
      return each_panel_step(g, candidate,
                             [a, v = carry.shift](const GridPanel& x, const GridPanel& y) {
                               return shift_levels(x.by_slot[a], v) == y.by_slot[a];
                             });
    case GridCarry::kMove: return move_holds(a, g, candidate);
    case GridCarry::kRegenerate: break;
  }
  const GridPanel& last = g.panel(g.grid - 1, g.grid - 1, candidate);
  const engine::Range range = attr == 0   ? g.layout->type
                              : attr == 1 ? g.layout->size
                                          : g.layout->color;
  log_lik -= last.count * std::log(static_cast<double>(std::max(1, range.size())));
  return last.usable;
}

// Arithmetic Position (docs/variants.md): the last slot set is the union (+) or the running
// difference (-) of the first N-1, and every middle set adds a slot to the union, or leaves the
// difference non-empty.
bool arithmetic_position(int sign, const GridComponent& g, int candidate) {
  for (int r = 0; r < g.grid; ++r) {
    std::uint32_t acc = g.panel(r, 0, candidate).mask;
    for (int c = 1; c + 1 < g.grid; ++c) {
      const std::uint32_t m = g.panel(r, c, candidate).mask;
      const std::uint32_t next = sign > 0 ? (acc | m) : (acc & ~m);
      if (next == (sign > 0 ? acc : 0u)) return false;  // + added nothing, - emptied the set
      acc = next;
    }
    const GridPanel& last = g.panel(r, g.grid - 1, candidate);
    if (!last.usable || last.mask != acc) return false;
  }
  return true;
}

bool number_position_rule(const engine::Rule& rule, const GridComponent& g, int candidate) {
  const bool number = rule.attr == engine::RuleAttr::kNumber;
  const ValueOf value = number ? ValueOf(count_of) : ValueOf(mask_of);
  const int v = rule.value, n = g.slots;
  switch (rule.name) {
    case RuleName::kConstant:
      return each_panel_step(
          g, candidate, [](const GridPanel& a, const GridPanel& b) { return a.mask == b.mask; });
    case RuleName::kProgression:
      if (number) return each_step(g, candidate, value, [v](long a, long b) { return b == a + v; });
      return each_step(g, candidate, value, [v, n](long a, long b) {
        return static_cast<long>(shift_slots(static_cast<std::uint32_t>(a), v, n)) == b;
      });
    case RuleName::kArithmetic:
      if (number)
        return each_fold(g, candidate, value,
                         [v](long a, long b) { return v > 0 ? a + b : a - b; });
      return arithmetic_position(v, g, candidate);
    case RuleName::kDistributeThree: return latin_square(g, candidate, value);
  }
  return false;
}

}  // namespace

bool group0_holds(const engine::Rule& rule, const GridComponent& g, int candidate, GridCarry& carry,
                  double& log_lik) {
  if (!number_position_rule(rule, g, candidate)) return false;
  const bool position = rule.attr == engine::RuleAttr::kPosition;
  carry = {};
  if (rule.name == RuleName::kConstant)
    carry.kind = GridCarry::kSlot;
  else if (position && rule.name == RuleName::kProgression)
    carry = {GridCarry::kShift, rule.value};
  else if (position && rule.name == RuleName::kDistributeThree)
    carry.kind = GridCarry::kMove;
  else
    carry.kind = GridCarry::kRegenerate;
  // A Number rule fixes the count only: the last panel's slot set is drawn afresh.
  if (rule.attr == engine::RuleAttr::kNumber) {
    const GridPanel& last = g.panel(g.grid - 1, g.grid - 1, candidate);
    log_lik -= log_choose(g.slots, last.count);
  }
  return true;
}

bool entity_rule_holds(const engine::Rule& rule, int attr, const GridCarry& carry,
                       const GridComponent& g, int candidate, double& log_lik) {
  if (rule.name == RuleName::kConstant) return constant_holds(attr, carry, g, candidate, log_lik);
  if (!all_common(g, candidate, attr)) return false;
  const ValueOf level = [a = static_cast<std::size_t>(attr)](const GridPanel& p) {
    return static_cast<long>(p.common[a]);
  };
  const int v = rule.value;
  // Size adds 1-based levels, Color raw ones (docs/rules.md); IBM's files add raw Size levels.
  const long unit = attr == 1 ? g.size_sum_unit : 0;
  switch (rule.name) {
    case RuleName::kProgression:
      return each_step(g, candidate, level, [v](long a, long b) { return b == a + v; });
    case RuleName::kArithmetic:
      return each_fold(g, candidate, level, [v, unit](long acc, long b) {
        return v > 0 ? acc + b + unit : acc - b - unit;
      });
    case RuleName::kDistributeThree: return latin_square(g, candidate, level);
    case RuleName::kConstant: break;
  }
  return false;
}

}  // namespace rave::solver
