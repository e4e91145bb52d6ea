#include "perception/styled_layout.hpp"

#include <algorithm>
#include <cmath>

#include "engine/model/look.hpp"
#include "engine/model/style_limits.hpp"

namespace rave::perception {
namespace {

using engine::Attr;

// Per pixel, the slot whose centre is nearest (the component's slots never overlap, so each
// entity lies in its own slot's pixels).
std::vector<std::uint8_t> owners(const std::vector<engine::EntityPlace>& places, int side) {
  std::vector<std::uint8_t> out(static_cast<std::size_t>(side) * side, kNoSlot);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x) {
      double best = 1e300;
      for (std::size_t s = 0; s < places.size(); ++s) {
        const double d = std::hypot(x + 0.5 - places[s].cx, y + 0.5 - places[s].cy);
        if (d < best)
          best = d, out[static_cast<std::size_t>(y) * side + x] = static_cast<std::uint8_t>(s);
      }
    }
  return out;
}

// How far from the panel's centre a component's entities can reach, outline included.
double reach(const StyledComponent& part, const engine::LevelLooks& looks, double stroke,
             int side) {
  double most = 0;
  for (const engine::EntityPlace& p : part.places)
    most = std::max(most, std::hypot(p.cx - side / 2.0, p.cy - side / 2.0) +
                              p.unit * looks.scale(part.size.max) + stroke + 2);
  return most;
}

}  // namespace

StyledLayout::StyledLayout(const engine::RenderStyle& style, const engine::Variant& variant,
                           engine::ConfigId config)
    : config_(config) {
  const engine::Configuration& c = engine::configuration(config);
  const int side = style.size;
  const engine::LevelLooks looks(style, variant);
  for (std::size_t k = 0; k < c.components.size(); ++k) {
    const engine::LayoutSpec& layout = c.components[k].layout;
    StyledComponent part{.layout = &layout,
                         .outer = c.structure == "Out_In" && k == 0,
                         .places = {},
                         .owner = {},
                         .type = engine::drawn_range(layout.type, Attr::kType, variant),
                         .size = engine::drawn_range(layout.size, Attr::kSize, variant),
                         .color = engine::drawn_range(layout.color, Attr::kColor, variant),
                         .hidden = 0};
    for (const engine::Slot& slot : layout.slots)
      part.places.push_back(engine::entity_place(slot, side));
    part.owner = owners(part.places, side);
    parts_.push_back(std::move(part));
  }
  const double stroke = engine::widest_stroke(style, variant);
  if (parts_.size() == 2 && parts_[0].outer)
    parts_[0].hidden = reach(parts_[1], looks, stroke, side);
  separator_.assign(static_cast<std::size_t>(side) * side, 0);
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x)
      separator_[static_cast<std::size_t>(y) * side + x] =
          engine::on_separator(style, c.structure, x, y) ? 1 : 0;
}

}  // namespace rave::perception
