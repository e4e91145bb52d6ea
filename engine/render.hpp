#pragma once
// Panel renderer (spec/raven.md 10): 160x160 uint8 gray panels, byte-identical to the original's
// OpenCV drawing (8-connected thick lines, filled convex polygons and circles, bilinear rotation,
// replace-not-blend compositing, structure separators).
//
//   Image img = render_panel(ConfigId::kDistributeFour, problem.context[0]);
//   std::uint8_t pixel = img[y * kPanelSize + x];   // 255 white background, 0 black ink
#include <array>
#include <cstdint>

#include "engine/configuration.hpp"
#include "engine/problem.hpp"

namespace rave::engine {

/// Side of a panel in pixels.
inline constexpr int kPanelSize = 160;
/// A rendered panel, row-major.
using Image = std::array<std::uint8_t, kPanelSize * kPanelSize>;

/// Renders one panel of a problem of configuration `config`.
Image render_panel(ConfigId config, const Panel& panel);

}  // namespace rave::engine
