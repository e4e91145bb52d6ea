#pragma once
// What the pictures of a problem show, for the perception probes (evaluation/export/probes.hpp): per
// panel whether perception reads its pixels back to the problem's own entities, and per entity
// which of Type, Size and Color its readings leave open; and the values the questions compare.
//
//   std::vector<PanelFacts> facts = visual_facts(problem);     // renders and parses every panel
//   if (facts[3].readable && visible(facts[3], 0, ProbeAttr::kSize)) ...
//   std::optional<int> size = uniform_value(problem.panel(3).components[0], ProbeAttr::kSize);
#include <optional>
#include <vector>

#include "engine/model/problem.hpp"
#include "evaluation/export/probes.hpp"

namespace rave::evaluation::internal {

/// Whether an entity's readings agree on each of Type, Size and Color.
struct EntityVisibility {
  bool shape = true, size = true, color = true;
};

/// One panel as its pixels show it.
struct PanelFacts {
  bool readable = false;  ///< perception parses it exactly, to the problem's entities
  std::vector<std::vector<EntityVisibility>> entities;  ///< [component][the problem's entity]
};

/// The facts of every panel of `problem` (file order), from its rendering. Empty when the problem
/// cannot be drawn.
std::vector<PanelFacts> visual_facts(const engine::Problem& problem);

/// Whether `attr` of every entity of `component` shows in the panel (number and position show
/// in every readable panel).
bool visible(const PanelFacts& facts, int component, ProbeAttr attr);
/// Whether shape, size and color of every entity of every component show.
bool fully_visible(const PanelFacts& facts);

/// The level of an entity's Type, Size or Color (`attr` one of them).
int entity_value(const engine::Entity& entity, ProbeAttr attr);
/// The level every entity of the component shares in `attr`, or nullopt when they differ (or
/// there are none). Number is the entity count and has always one value; Position has none.
std::optional<int> uniform_value(const engine::ComponentPanel& component, ProbeAttr attr);
/// The occupied slots, ascending.
std::vector<int> slots_of(const engine::ComponentPanel& component);
/// Whether the configuration's component `component` holds one entity in every panel.
bool single_entity(engine::ConfigId config, int component);

/// Whether panels `a` and `b` differ in `attr` alone, rotation aside (docs/probes.md,
/// one_difference): number (counts differ, shapes otherwise alike), position (counts equal, places
/// differ, shapes otherwise alike) or one of Type, Size, Color entity by entity.
bool differs_only_in(const engine::Panel& a, const engine::Panel& b, ProbeAttr attr);

}  // namespace rave::evaluation::internal
