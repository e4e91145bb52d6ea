#pragma once
// One panel's pixels back to its symbols, exactly (docs/perception.md): for every slot of the
// configuration, component by component, the pixels of the slot's region are looked up among the
// entities the renderer draws there (perception/slot_table.hpp); where something already drawn
// lies below (an Out shape under the In entities), each allowed entity is composited over it and
// compared instead. The parse is then re-rendered and must give the image back byte for byte.
// Every reading that renders identically is kept (Angles that look alike, O-IG squares of Size 2
// and 3), one per distinct Type, Size and Color: those are what a solver must marginalise over.
//
//   PanelParse p = parse_panel(ConfigId::kDistributeFour, image.data());
//   if (p.exact) use(p.panel);           // p.readings[c][j]: entity j of component c, all readings
#include <cstdint>
#include <vector>

#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"

namespace rave::perception {

/// The readings of one panel.
struct PanelParse {
  bool exact = false;   ///< every slot was read and the parse re-renders to the image byte for byte
  engine::Panel panel;  ///< the first reading of every occupied slot, entities in slot order
  /// readings[c][j]: the readings of entity j of component c of `panel` (its slot fixed), one per
  /// distinct (Type, Size, Color), each rendering the panel identically; readings[c][j][0] is
  /// panel.components[c].entities[j].
  std::vector<std::vector<std::vector<engine::Entity>>> readings;
};

/// Parses `image` (kPanelPixels bytes) as a panel of `config`; exact is false when some slot's
/// pixels match nothing, a component's entity count is not one its layout allows, or the
/// re-render differs.
PanelParse parse_panel(engine::ConfigId config, const std::uint8_t* image);

}  // namespace rave::perception
