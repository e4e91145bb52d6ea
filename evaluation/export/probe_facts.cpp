// The visual facts behind the perception probes (evaluation/export/internal/probe_facts.hpp).
#include "evaluation/export/internal/probe_facts.hpp"

#include <algorithm>
#include <cstddef>

#include "engine/model/configuration.hpp"
#include "engine/render/render.hpp"
#include "perception/panel_parse.hpp"

namespace rave::evaluation::internal {
namespace {

using engine::ComponentPanel;
using engine::Entity;

// Which of the problem's entity's attributes all readings of the parsed entity in its slot share;
// nullopt when no parsed entity sits there or the problem's entity is none of its readings.
std::optional<EntityVisibility> visibility_of(const Entity& e, const engine::ComponentPanel& parsed,
                                              const std::vector<std::vector<Entity>>& readings) {
  for (std::size_t j = 0; j < parsed.entities.size(); ++j) {
    if (parsed.entities[j].slot != e.slot) continue;
    const std::vector<Entity>& r = readings[j];
    const auto same = [&](auto field) {
      return std::all_of(r.begin(), r.end(), [&](const Entity& x) { return x.*field == e.*field; });
    };
    const bool among = std::any_of(r.begin(), r.end(), [&](const Entity& x) {
      return x.type == e.type && x.size == e.size && x.color == e.color;
    });
    if (!among) return std::nullopt;
    return EntityVisibility{
        .shape = same(&Entity::type), .size = same(&Entity::size), .color = same(&Entity::color)};
  }
  return std::nullopt;
}

PanelFacts panel_facts(engine::ConfigId config, const engine::Panel& panel,
                       const engine::Image& image) {
  const perception::PanelParse parse = perception::parse_panel(config, image.data());
  PanelFacts facts;
  if (!parse.exact || parse.panel.components.size() != panel.components.size()) return facts;
  facts.entities.resize(panel.components.size());
  for (std::size_t c = 0; c < panel.components.size(); ++c) {
    const ComponentPanel& mine = panel.components[c];
    if (slots_of(mine) != slots_of(parse.panel.components[c])) return facts;
    for (const Entity& e : mine.entities) {
      const auto v = visibility_of(e, parse.panel.components[c], parse.readings[c]);
      if (!v) return facts;
      facts.entities[c].push_back(*v);
    }
  }
  facts.readable = true;
  return facts;
}

bool shows(const EntityVisibility& v, ProbeAttr attr) {
  switch (attr) {
    case ProbeAttr::kShape: return v.shape;
    case ProbeAttr::kSize: return v.size;
    case ProbeAttr::kColor: return v.color;
    default: return true;
  }
}

// Entities of a component by slot, as (slot, entity) in ascending slot order.
std::vector<Entity> by_slot(const ComponentPanel& c) {
  std::vector<Entity> e = c.entities;
  std::sort(e.begin(), e.end(), [](const Entity& x, const Entity& y) { return x.slot < y.slot; });
  return e;
}

bool same_look(const Entity& x, const Entity& y) {
  return x.type == y.type && x.size == y.size && x.color == y.color;
}

// Every entity of both components looks alike (Type, Size and Color).
bool all_alike(const ComponentPanel& a, const ComponentPanel& b) {
  const Entity* first = !a.entities.empty() ? &a.entities[0] : nullptr;
  if (first == nullptr) return b.entities.empty();
  const auto like = [&](const Entity& e) { return same_look(e, *first); };
  return std::all_of(a.entities.begin(), a.entities.end(), like) &&
         std::all_of(b.entities.begin(), b.entities.end(), like);
}

// The same slots, and entity by entity equal in Type, Size and Color but for `attr` (nullopt:
// in all three); `differ` is set when some entity differs in `attr`.
bool entitywise(const ComponentPanel& a, const ComponentPanel& b, std::optional<ProbeAttr> attr,
                bool& differ) {
  const std::vector<Entity> x = by_slot(a), y = by_slot(b);
  if (slots_of(a) != slots_of(b)) return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (ProbeAttr other : {ProbeAttr::kShape, ProbeAttr::kSize, ProbeAttr::kColor}) {
      const bool equal = entity_value(x[i], other) == entity_value(y[i], other);
      if (attr == other)
        differ = differ || !equal;
      else if (!equal)
        return false;
    }
  return true;
}

// Number or position: every component either in the same places and entity by entity alike, or
// changed in that attribute alone (number: its count differs; position: the same count in other
// places) with all its shapes alike in both panels; at least one changed.
bool layout_only(const engine::Panel& a, const engine::Panel& b, ProbeAttr attr) {
  bool changed = false;
  for (std::size_t c = 0; c < a.components.size(); ++c) {
    const ComponentPanel &x = a.components[c], &y = b.components[c];
    const bool count_differs = x.entities.size() != y.entities.size();
    if (count_differs != (attr == ProbeAttr::kNumber) && slots_of(x) != slots_of(y)) return false;
    bool unused = false;
    if (slots_of(x) == slots_of(y)) {
      if (!entitywise(x, y, std::nullopt, unused)) return false;
      continue;
    }
    if (!all_alike(x, y)) return false;
    changed = true;
  }
  return changed;
}

}  // namespace

std::vector<PanelFacts> visual_facts(const engine::Problem& problem) {
  if (!problem.variant.drawable()) return {};
  const std::vector<engine::Image> images = engine::render_problem(problem);
  std::vector<PanelFacts> facts;
  for (int i = 0; i < problem.panel_count(); ++i)
    facts.push_back(
        panel_facts(problem.config, problem.panel(i), images[static_cast<std::size_t>(i)]));
  return facts;
}

bool visible(const PanelFacts& facts, int component, ProbeAttr attr) {
  if (!facts.readable) return false;
  const auto& entities = facts.entities[static_cast<std::size_t>(component)];
  return std::all_of(entities.begin(), entities.end(),
                     [&](const EntityVisibility& v) { return shows(v, attr); });
}

bool fully_visible(const PanelFacts& facts) {
  for (std::size_t c = 0; c < facts.entities.size(); ++c)
    for (ProbeAttr a : {ProbeAttr::kShape, ProbeAttr::kSize, ProbeAttr::kColor})
      if (!visible(facts, static_cast<int>(c), a)) return false;
  return facts.readable;
}

int entity_value(const Entity& entity, ProbeAttr attr) {
  return attr == ProbeAttr::kShape  ? entity.type
         : attr == ProbeAttr::kSize ? entity.size
                                    : entity.color;
}

std::optional<int> uniform_value(const ComponentPanel& component, ProbeAttr attr) {
  if (attr == ProbeAttr::kNumber) return static_cast<int>(component.entities.size());
  if (attr == ProbeAttr::kPosition || component.entities.empty()) return std::nullopt;
  const int v = entity_value(component.entities[0], attr);
  for (const Entity& e : component.entities)
    if (entity_value(e, attr) != v) return std::nullopt;
  return v;
}

std::vector<int> slots_of(const ComponentPanel& component) {
  std::vector<int> s;
  for (const Entity& e : component.entities) s.push_back(e.slot);
  std::sort(s.begin(), s.end());
  return s;
}

bool single_entity(engine::ConfigId config, int component) {
  return engine::configuration(config)
             .components[static_cast<std::size_t>(component)]
             .layout.slots.size() == 1;
}

bool differs_only_in(const engine::Panel& a, const engine::Panel& b, ProbeAttr attr) {
  if (attr == ProbeAttr::kNumber || attr == ProbeAttr::kPosition) return layout_only(a, b, attr);
  bool differ = false;
  for (std::size_t c = 0; c < a.components.size(); ++c)
    if (!entitywise(a.components[c], b.components[c], attr, differ)) return false;
  return differ;
}

}  // namespace rave::evaluation::internal
