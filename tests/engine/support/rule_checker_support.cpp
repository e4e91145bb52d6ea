// Independent rule checker: every statement below is transcribed from
// docs/format.md#configurations, docs/format.md#value-tables, docs/rules.md and
// docs/solver.md#details-that-decide (the list of decisive details); none of it calls the
// generator.
#include "tests/engine/support/rule_checker_support.hpp"

#include <algorithm>
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
void check_ranges(Checker& c, const engine::LayoutSpec& layout, const ComponentPanel& p, int index) {
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
      c.expect(identical_values(e, p.entities.front()), at + ": uniform layout with differing entities");
}

// Distribute_Three (docs/rules.md#number-and-position-rules,
// docs/rules.md#type-size-and-color-rules; docs/solver.md#details-that-decide): row 1 holds three
// distinct values, row 2 is one rotation of row 1 and row 3 the other one (a Latin square).
template <class T>
void check_latin(Checker& c, const std::array<std::array<T, 3>, 3>& rows, const std::string& what) {
  const auto& a = rows[0];
  c.expect(a[0] != a[1] && a[1] != a[2] && a[0] != a[2], what + ": row 1 values not distinct");
  const std::array<T, 3> rot1{a[1], a[2], a[0]};
  const std::array<T, 3> rot2{a[2], a[0], a[1]};
  const bool ok = (rows[1] == rot1 && rows[2] == rot2) || (rows[1] == rot2 && rows[2] == rot1);
  c.expect(ok, what + ": rows 2 and 3 are not the two rotations of row 1");
}

// Group 0 on one row (docs/rules.md#number-and-position-rules).
void check_group0_row(Checker& c, const Rule& rule, int slots, const ComponentPanel& a,
                      const ComponentPanel& b, const ComponentPanel& d, int r) {
  const std::string at = row_name(r) + " " + std::string(engine::rule_name_text(rule.name)) + " " +
                         std::string(engine::rule_attr_text(rule.attr));
  const int v = rule.value;
  if (rule.name == RuleName::kConstant) {
    c.expect(slot_list(a) == slot_list(b) && slot_list(b) == slot_list(d), at + ": positions changed");
  } else if (rule.name == RuleName::kProgression && rule.attr == RuleAttr::kNumber) {
    c.expect(count(b) == count(a) + v && count(d) == count(b) + v, at + ": counts not L, L+v, L+2v");
  } else if (rule.name == RuleName::kProgression) {
    auto shifted = [&](const ComponentPanel& p) {
      std::vector<int> s;
      for (int slot : slot_list(p)) s.push_back(((slot + v) % slots + slots) % slots);
      return s;
    };
    c.expect(slot_list(b) == shifted(a) && slot_list(d) == shifted(b),
             at + ": slots are not shifted by v modulo the slot count");
  } else if (rule.name == RuleName::kArithmetic && rule.attr == RuleAttr::kNumber) {
    c.expect(count(d) == (v > 0 ? count(a) + count(b) : count(a) - count(b)), at + ": count arithmetic");
  } else if (rule.name == RuleName::kArithmetic) {
    const SlotSet sa = slot_set(a), sb = slot_set(b);
    SlotSet expect_set;
    if (v > 0) {
      std::set_union(sa.begin(), sa.end(), sb.begin(), sb.end(), std::inserter(expect_set, expect_set.end()));
      c.expect(!std::includes(sa.begin(), sa.end(), sb.begin(), sb.end()), at + ": col2 is a subset of col1");
    } else {
      std::set_difference(sa.begin(), sa.end(), sb.begin(), sb.end(),
                          std::inserter(expect_set, expect_set.end()));
      c.expect(!std::includes(sb.begin(), sb.end(), sa.begin(), sa.end()), at + ": col1 is a subset of col2");
    }
    c.expect(slot_set(d) == expect_set, at + ": col3 is not the set union/difference");
    const auto list = slot_list(d);
    c.expect(std::is_sorted(list.begin(), list.end()), at + ": col3 slots not ascending");
  }
}

bool copies_entities(const Rule& r0) {
  return r0.name == RuleName::kConstant ||
         (r0.attr == RuleAttr::kPosition &&
          (r0.name == RuleName::kProgression || r0.name == RuleName::kDistributeThree));
}

int level_of(const Entity& e, int group) { return group == 1 ? e.type : group == 2 ? e.size : e.color; }

bool one_value(const ComponentPanel& p, int group) {
  return std::all_of(p.entities.begin(), p.entities.end(),
                     [&](const Entity& e) { return level_of(e, group) == level_of(p.entities.front(), group); });
}

// Entity rule of group 1-3 on one row (docs/rules.md#type-size-and-color-rules). x = the row's
// three values (first entities).
void check_entity_row(Checker& c, const Rule& rule, int group, const std::array<const ComponentPanel*, 3>& p,
                      const Rule& r0, int r) {
  const std::string at = row_name(r) + " " + std::string(engine::rule_name_text(rule.name)) + " " +
                         std::string(engine::rule_attr_text(rule.attr));
  std::array<int, 3> x{};
  for (std::size_t i = 0; i < 3; ++i) x[i] = level_of(p[i]->entities.front(), group);
  const int v = rule.value;
  if (rule.name != RuleName::kConstant)
    for (std::size_t i = 0; i < 3; ++i) c.expect(one_value(*p[i], group), at + ": entities of a panel differ");
  if (rule.name == RuleName::kProgression) {
    c.expect(x[1] == x[0] + v && x[2] == x[1] + v, at + ": not L, L+v, L+2v");
  } else if (rule.name == RuleName::kArithmetic && rule.attr == RuleAttr::kSize) {
    c.expect(x[2] + 1 == (v > 0 ? (x[0] + 1) + (x[1] + 1) : (x[0] + 1) - (x[1] + 1)),
             at + ": 1-based Size arithmetic fails");
  } else if (rule.name == RuleName::kArithmetic) {
    c.expect(x[2] == (v > 0 ? x[0] + x[1] : x[0] - x[1]), at + ": raw Color arithmetic fails");
  } else if (rule.name == RuleName::kConstant) {
    const bool uniform = p[0]->uniformity == 3;
    if (uniform) {
      for (std::size_t i = 0; i < 3; ++i) c.expect(one_value(*p[i], group), at + ": uniform panel differs");
      c.expect(x[0] == x[1] && x[1] == x[2], at + ": uniform Constant value changes along the row");
    } else if (copies_entities(r0)) {
      for (std::size_t i = 1; i < 3; ++i)
        for (std::size_t k = 0; k < p[i]->entities.size(); ++k)
          c.expect(level_of(p[i]->entities[k], group) == level_of(p[i - 1]->entities[k], group),
                   at + ": copied entity changed its Constant attribute");
    }
  }
}

// Angle is noise but is copied with the entities (docs/rules.md#noise).
void check_angle_row(Checker& c, const Rule& r0, const std::array<const ComponentPanel*, 3>& p, int r) {
  const std::string at = row_name(r) + " Angle";
  if (p[0]->uniformity == 3) {
    const int angle = p[0]->entities.front().angle;
    for (const auto* panel : p)
      for (const Entity& e : panel->entities) c.expect(e.angle == angle, at + ": uniform angle changes");
  } else if (copies_entities(r0)) {
    for (std::size_t i = 1; i < 3; ++i)
      for (std::size_t k = 0; k < p[i]->entities.size(); ++k)
        c.expect(p[i]->entities[k].angle == p[i - 1]->entities[k].angle, at + ": copied entity re-angled");
  }
}

void check_component(Checker& c, const engine::LayoutSpec& layout, const engine::RuleGroup& group,
                     const std::array<engine::Panel, 9>& panels, std::size_t l) {
  auto comp = [&](int i) -> const ComponentPanel& { return panels[static_cast<std::size_t>(i)].components[l]; };
  for (int i = 0; i < 9; ++i) {
    check_ranges(c, layout, comp(i), i);
    c.expect(comp(i).uniformity == comp(0).uniformity, "Uniformity changes within the problem");
  }
  if (!c.out.empty()) return;  // the rule checks below assume well-formed panels
  const Rule& r0 = group.rules[0];
  const int slots = static_cast<int>(layout.slots.size());
  std::array<std::array<int, 3>, 3> counts{};
  std::array<std::array<SlotSet, 3>, 3> sets{};
  std::array<std::array<std::array<int, 3>, 3>, 4> values{};
  for (int r = 0; r < 3; ++r) {
    const std::array<const ComponentPanel*, 3> p{&comp(3 * r), &comp(3 * r + 1), &comp(3 * r + 2)};
    check_group0_row(c, r0, slots, *p[0], *p[1], *p[2], r);
    for (int g = 1; g < 4; ++g) check_entity_row(c, group.rules[static_cast<std::size_t>(g)], g, p, r0, r);
    check_angle_row(c, r0, p, r);
    for (std::size_t k = 0; k < 3; ++k) {
      counts[static_cast<std::size_t>(r)][k] = count(*p[k]);
      sets[static_cast<std::size_t>(r)][k] = slot_set(*p[k]);
      for (int g = 1; g < 4; ++g)
        values[static_cast<std::size_t>(g)][static_cast<std::size_t>(r)][k] = level_of(p[k]->entities.front(), g);
    }
  }
  if (r0.name == RuleName::kDistributeThree && r0.attr == RuleAttr::kNumber)
    check_latin(c, counts, "Distribute_Three Number");
  if (r0.name == RuleName::kDistributeThree && r0.attr == RuleAttr::kPosition) {
    check_latin(c, sets, "Distribute_Three Position");
    for (int i = 0; i < 9; ++i) c.expect(count(comp(i)) == count(comp(0)), "D3 Position: Number changes");
  }
  for (int g = 1; g < 4; ++g) {
    const Rule& rule = group.rules[static_cast<std::size_t>(g)];
    if (rule.name == RuleName::kDistributeThree)
      check_latin(c, values[static_cast<std::size_t>(g)], "Distribute_Three " + std::string(engine::rule_attr_text(rule.attr)));
    if (rule.name == RuleName::kArithmetic && rule.attr == RuleAttr::kColor)
      c.expect(!(values[3][0][1] == 0 && values[3][1][1] == 0), "Arithmetic Color: rows 1 and 2 both have col2 = 0");
  }
}

}  // namespace

std::vector<std::string> check_matrix_rules(engine::ConfigId config_id,
                                            const std::vector<engine::RuleGroup>& rules,
                                            const std::array<engine::Panel, 9>& panels) {
  std::vector<std::string> out;
  const engine::Configuration& config = engine::configuration(config_id);
  if (rules.size() != config.components.size()) return {"rule group count differs from the component count"};
  for (int i = 0; i < 9; ++i)
    if (panels[static_cast<std::size_t>(i)].components.size() != rules.size())
      return {"panel " + std::to_string(i) + " has the wrong component count"};
  for (std::size_t l = 0; l < rules.size(); ++l) {
    std::vector<std::string> local;
    Checker c{local, "component " + std::to_string(l)};
    check_component(c, config.components[l].layout, rules[l], panels, l);
    out.insert(out.end(), local.begin(), local.end());
  }
  return out;
}

}  // namespace rave::testing
