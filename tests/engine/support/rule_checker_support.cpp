// Independent rule checker: every statement below is transcribed from
// docs/format.md#configurations, docs/format.md#value-tables, docs/rules.md and
// docs/solver.md#details-that-decide (the list of decisive details); none of it calls the
// generator.
#include "tests/engine/support/rule_checker_support.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>

namespace rave::testing {
namespace {

using engine::ComponentPanel;
using engine::Entity;
using engine::Range;
using engine::Rule;
using engine::RuleAttr;
using engine::RuleName;

using SlotSet = std::set<int>;

struct Checker {
  std::vector<std::string>& out;
  std::string where;  // "component l"

  void fail(const std::string& what) { out.push_back(where + ": " + what); }
  void expect(bool ok, const std::string& what) {
    if (!ok) fail(what);
  }
};

std::string row_name(int r) { return "row " + std::to_string(r + 1); }

SlotSet slot_set(const ComponentPanel& p) {
  SlotSet s;
  for (const Entity& e : p.entities) s.insert(e.slot);
  return s;
}

std::vector<int> slot_list(const ComponentPanel& p) {
  std::vector<int> s;
  for (const Entity& e : p.entities) s.push_back(e.slot);
  return s;
}

int count(const ComponentPanel& p) { return static_cast<int>(p.entities.size()); }

bool identical_values(const Entity& a, const Entity& b) {
  return a.type == b.type && a.size == b.size && a.color == b.color && a.angle == b.angle;
}

// docs/format.md#configurations, docs/format.md#value-tables: counts, slots and levels within the
// configuration's original ranges.
void check_ranges(Checker& c, const engine::LayoutSpec& layout, const ComponentPanel& p,
                  int index) {
  const std::string at = "panel " + std::to_string(index);
  const int slots = static_cast<int>(layout.slots.size());
  c.expect(count(p) >= 1 && layout.number.contains(count(p) - 1), at + ": Number out of range");
  c.expect(static_cast<int>(slot_set(p).size()) == count(p), at + ": two entities share a slot");
  for (const Entity& e : p.entities) {
    c.expect(0 <= e.slot && e.slot < slots, at + ": slot index out of range");
    c.expect(layout.type.contains(e.type), at + ": Type out of range");
    c.expect(layout.size.contains(e.size), at + ": Size out of range");
    c.expect(layout.color.contains(e.color), at + ": Color out of range");
    c.expect(layout.angle.contains(e.angle), at + ": Angle out of range");
  }
  c.expect(0 <= p.uniformity && p.uniformity <= 3, at + ": Uniformity level out of range");
  if (p.uniformity == 3)
    for (const Entity& e : p.entities)
      c.expect(identical_values(e, p.entities.front()),
               at + ": uniform layout with differing entities");
}

// Distribute_N (spec 6.2, 6.3; abduction.md 6.4; docs/variants.md): row 1 holds N distinct values
// and every row is a different cyclic shift of row 1 (a Latin square; at N = 3 rows 2 and 3 are the
// two rotations of row 1).
template <class T>
void check_latin(Checker& c, const std::vector<std::vector<T>>& rows, const std::string& what) {
  const auto& a = rows[0];
  const std::size_t n = a.size();
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j)
      c.expect(a[i] != a[j], what + ": row 1 values not distinct");
  std::set<std::size_t> shifts_seen;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::optional<std::size_t> shift;
    for (std::size_t s = 0; s < n && !shift; ++s) {
      bool same = true;
      for (std::size_t k = 0; k < n; ++k) same = same && rows[r][k] == a[(k + s) % n];
      if (same) shift = s;
    }
    c.expect(shift.has_value(),
             what + ": " + row_name(static_cast<int>(r)) + " is not a rotation of row 1");
    if (shift) c.expect(shifts_seen.insert(*shift).second, what + ": two rows share one rotation");
  }
}

// Group 0 on one row (spec 6.2; on N columns docs/variants.md): Arithmetic's last column is the
// sum / difference (counts) or union / difference (slot sets) of the first N-1.
void check_group0_row(Checker& c, const Rule& rule, int slots,
                      const std::vector<const ComponentPanel*>& p, int r) {
  const std::string at = row_name(r) + " " + std::string(engine::rule_name_text(rule.name)) + " " +
                         std::string(engine::rule_attr_text(rule.attr));
  const int v = rule.value;
  const std::size_t n = p.size();
  const ComponentPanel& last = *p[n - 1];
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const ComponentPanel& a = *p[k];
    const ComponentPanel& b = *p[k + 1];
    if (rule.name == RuleName::kConstant) {
      c.expect(slot_list(a) == slot_list(b), at + ": positions changed");
    } else if (rule.name == RuleName::kProgression && rule.attr == RuleAttr::kNumber) {
      c.expect(count(b) == count(a) + v, at + ": counts not L, L+v, L+2v, ...");
    } else if (rule.name == RuleName::kProgression) {
      std::vector<int> shifted;
      for (int slot : slot_list(a)) shifted.push_back(((slot + v) % slots + slots) % slots);
      c.expect(slot_list(b) == shifted, at + ": slots are not shifted by v modulo the slot count");
    }
  }
  if (rule.name != RuleName::kArithmetic) return;
  if (rule.attr == RuleAttr::kNumber) {
    int expected = count(*p[0]);
    for (std::size_t k = 1; k + 1 < n; ++k) expected += v > 0 ? count(*p[k]) : -count(*p[k]);
    c.expect(count(last) == expected, at + ": count arithmetic");
    return;
  }
  SlotSet acc = slot_set(*p[0]);
  for (std::size_t k = 1; k + 1 < n; ++k) {
    const SlotSet sb = slot_set(*p[k]);
    SlotSet next;
    if (v > 0) {
      c.expect(!std::includes(acc.begin(), acc.end(), sb.begin(), sb.end()),
               at + ": an operand adds no slot");
      std::set_union(acc.begin(), acc.end(), sb.begin(), sb.end(), std::inserter(next, next.end()));
    } else {
      c.expect(!std::includes(sb.begin(), sb.end(), acc.begin(), acc.end()),
               at + ": an operand removes every slot");
      std::set_difference(acc.begin(), acc.end(), sb.begin(), sb.end(),
                          std::inserter(next, next.end()));
    }
    acc = std::move(next);
  }
  c.expect(slot_set(last) == acc, at + ": the last column is not the set union/difference");
  const auto list = slot_list(last);
  c.expect(std::is_sorted(list.begin(), list.end()), at + ": last column's slots not ascending");
}

bool copies_entities(const Rule& r0) {
  return r0.name == RuleName::kConstant ||
         (r0.attr == RuleAttr::kPosition &&
          (r0.name == RuleName::kProgression || r0.name == RuleName::kDistributeThree));
}

int level_of(const Entity& e, int group) {
  return group == 1 ? e.type : group == 2 ? e.size : e.color;
}

bool one_value(const ComponentPanel& p, int group) {
  return std::all_of(p.entities.begin(), p.entities.end(), [&](const Entity& e) {
    return level_of(e, group) == level_of(p.entities.front(), group);
  });
}

// Arithmetic over the first N-1 columns: 1-based for Size, raw for Color (spec 6.3).
void check_entity_arithmetic(Checker& c, const Rule& rule, const std::vector<int>& x,
                             const std::string& at) {
  const int unit = rule.attr == RuleAttr::kSize ? 1 : 0;
  int expected = x[0] + unit;
  for (std::size_t k = 1; k + 1 < x.size(); ++k)
    expected += (rule.value > 0 ? 1 : -1) * (x[k] + unit);
  c.expect(x.back() + unit == expected,
           at + (unit == 1 ? ": 1-based Size arithmetic fails" : ": raw Color arithmetic fails"));
}

// Entity rule of group 1-3 on one row (spec 6.3). x = the row's values (first entities).
void check_entity_row(Checker& c, const Rule& rule, int group,
                      const std::vector<const ComponentPanel*>& p, const Rule& r0, int r) {
  const std::string at = row_name(r) + " " + std::string(engine::rule_name_text(rule.name)) + " " +
                         std::string(engine::rule_attr_text(rule.attr));
  std::vector<int> x;
  for (const ComponentPanel* panel : p) x.push_back(level_of(panel->entities.front(), group));
  if (rule.name != RuleName::kConstant)
    for (const ComponentPanel* panel : p)
      c.expect(one_value(*panel, group), at + ": entities of a panel differ");
  if (rule.name == RuleName::kProgression) {
    for (std::size_t k = 0; k + 1 < x.size(); ++k)
      c.expect(x[k + 1] == x[k] + rule.value, at + ": not L, L+v, L+2v, ...");
  } else if (rule.name == RuleName::kArithmetic) {
    check_entity_arithmetic(c, rule, x, at);
  } else if (rule.name == RuleName::kConstant) {
    if (p[0]->uniformity == 3) {
      for (const ComponentPanel* panel : p)
        c.expect(one_value(*panel, group), at + ": uniform panel differs");
      c.expect(std::all_of(x.begin(), x.end(), [&](int l) { return l == x[0]; }),
               at + ": uniform Constant value changes along the row");
    } else if (copies_entities(r0)) {
      for (std::size_t i = 1; i < p.size(); ++i)
        for (std::size_t k = 0; k < p[i]->entities.size(); ++k)
          c.expect(level_of(p[i]->entities[k], group) == level_of(p[i - 1]->entities[k], group),
                   at + ": copied entity changed its Constant attribute");
    }
  }
}

// Angle is noise but is copied with the entities (docs/rules.md#noise).
void check_angle_row(Checker& c, const Rule& r0, const std::vector<const ComponentPanel*>& p,
                     int r) {
  const std::string at = row_name(r) + " Angle";
  if (p[0]->uniformity == 3) {
    const int angle = p[0]->entities.front().angle;
    for (const auto* panel : p)
      for (const Entity& e : panel->entities)
        c.expect(e.angle == angle, at + ": uniform angle changes");
  } else if (copies_entities(r0)) {
    for (std::size_t i = 1; i < p.size(); ++i)
      for (std::size_t k = 0; k < p[i]->entities.size(); ++k)
        c.expect(p[i]->entities[k].angle == p[i - 1]->entities[k].angle,
                 at + ": copied entity re-angled");
  }
}

// The whole-matrix checks after the rows: Distribute_N Latin squares and Color's white guard (row
// 1's middle columns all 0 forbids a 0 in row 2's col2, spec 6.3).
void check_matrix_wide(Checker& c, const engine::RuleGroup& group,
                       const std::vector<std::vector<int>>& counts,
                       const std::vector<std::vector<SlotSet>>& sets,
                       const std::array<std::vector<std::vector<int>>, 4>& values) {
  const Rule& r0 = group.rules[0];
  if (r0.name == RuleName::kDistributeThree && r0.attr == RuleAttr::kNumber)
    check_latin(c, counts, "Distribute_N Number");
  if (r0.name == RuleName::kDistributeThree && r0.attr == RuleAttr::kPosition) {
    check_latin(c, sets, "Distribute_N Position");
    for (const auto& row : counts)
      for (int n : row) c.expect(n == counts[0][0], "Distribute_N Position: Number changes");
  }
  for (int g = 1; g < 4; ++g) {
    const Rule& rule = group.rules[static_cast<std::size_t>(g)];
    if (rule.name == RuleName::kDistributeThree)
      check_latin(c, values[static_cast<std::size_t>(g)],
                  "Distribute_N " + std::string(engine::rule_attr_text(rule.attr)));
  }
  if (group.rules[3].name == RuleName::kArithmetic) {
    const auto& color = values[3];
    const bool row1_white =
        std::all_of(color[0].begin() + 1, color[0].end() - 1, [](int l) { return l == 0; });
    c.expect(!(row1_white && color[1][1] == 0),
             "Arithmetic Color: row 1's middle columns and row 2's col2 are all 0");
  }
}

void check_component(Checker& c, const engine::LayoutSpec& layout, const engine::RuleGroup& group,
                     std::span<const engine::Panel> panels, int grid, std::size_t l) {
  auto comp = [&](int i) -> const ComponentPanel& {
    return panels[static_cast<std::size_t>(i)].components[l];
  };
  for (int i = 0; i < grid * grid; ++i) {
    check_ranges(c, layout, comp(i), i);
    c.expect(comp(i).uniformity == comp(0).uniformity, "Uniformity changes within the problem");
  }
  if (!c.out.empty()) return;  // the rule checks below assume well-formed panels
  const Rule& r0 = group.rules[0];
  const int slots = static_cast<int>(layout.slots.size());
  const auto n = static_cast<std::size_t>(grid);
  std::vector<std::vector<int>> counts(n, std::vector<int>(n));
  std::vector<std::vector<SlotSet>> sets(n, std::vector<SlotSet>(n));
  std::array<std::vector<std::vector<int>>, 4> values;
  for (auto& v : values) v.assign(n, std::vector<int>(n));
  for (int r = 0; r < grid; ++r) {
    std::vector<const ComponentPanel*> p;
    for (int k = 0; k < grid; ++k) p.push_back(&comp(grid * r + k));
    check_group0_row(c, r0, slots, p, r);
    for (int g = 1; g < 4; ++g)
      check_entity_row(c, group.rules[static_cast<std::size_t>(g)], g, p, r0, r);
    check_angle_row(c, r0, p, r);
    const auto row = static_cast<std::size_t>(r);
    for (std::size_t k = 0; k < n; ++k) {
      counts[row][k] = count(*p[k]);
      sets[row][k] = slot_set(*p[k]);
      for (std::size_t g = 1; g < 4; ++g)
        values[g][row][k] = level_of(p[k]->entities.front(), static_cast<int>(g));
    }
  }
  check_matrix_wide(c, group, counts, sets, values);
}

}  // namespace

std::vector<std::string> check_matrix_rules(const engine::Configuration& config,
                                            const std::vector<engine::RuleGroup>& rules,
                                            std::span<const engine::Panel> panels) {
  int grid = 1;
  while ((grid + 1) * (grid + 1) <= static_cast<int>(panels.size())) ++grid;
  if (grid < 3 || grid * grid != static_cast<int>(panels.size()))
    return {"the panels are not an N x N matrix"};
  if (rules.size() != config.components.size())
    return {"rule group count differs from the component count"};
  for (std::size_t i = 0; i < panels.size(); ++i)
    if (panels[i].components.size() != rules.size())
      return {"panel " + std::to_string(i) + " has the wrong component count"};
  std::vector<std::string> out;
  for (std::size_t l = 0; l < rules.size(); ++l) {
    std::vector<std::string> local;
    Checker c{local, "component " + std::to_string(l)};
    check_component(c, config.components[l].layout, rules[l], panels, grid, l);
    out.insert(out.end(), local.begin(), local.end());
  }
  return out;
}

std::vector<std::string> check_matrix_rules(engine::ConfigId config,
                                            const std::vector<engine::RuleGroup>& rules,
                                            std::span<const engine::Panel> panels) {
  return check_matrix_rules(engine::configuration(config), rules, panels);
}

}  // namespace rave::testing
