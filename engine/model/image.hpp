#pragma once
// The pixel form of a panel as the RAVEN files store it: 160x160 8-bit gray, row-major, 255 the
// white background and 0 black ink. engine/render draws them, engine/formats stores them in npz
// `image` (kPanels of them per problem), and nothing in the model depends on how they are drawn.
//
//   Image img = render_panel(ConfigId::kDistributeFour, problem.context[0]);   // engine/render
//   std::uint8_t pixel = img[y * kPanelSize + x];
#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace rave::engine {

/// Side of a panel in pixels.
inline constexpr int kPanelSize = 160;
/// Pixels of one panel.
inline constexpr int kPanelPixels = kPanelSize * kPanelSize;
/// A panel's pixels, row-major.
using Image = std::array<std::uint8_t, kPanelPixels>;

/// Panels of any side in file order, row-major, one after the other: what a render style draws
/// (160 x 160 for the original, engine/model/style.hpp) and the npz `image` holds.
struct PanelStack {
  int side = kPanelSize;             ///< pixels per panel side
  std::vector<std::uint8_t> pixels;  ///< count() * side * side bytes
  std::size_t panel_bytes() const {
    return static_cast<std::size_t>(side) * static_cast<std::size_t>(side);
  }
  int count() const { return static_cast<int>(pixels.size() / panel_bytes()); }
  std::uint8_t* panel(int i) { return pixels.data() + static_cast<std::size_t>(i) * panel_bytes(); }
  const std::uint8_t* panel(int i) const {
    return pixels.data() + static_cast<std::size_t>(i) * panel_bytes();
  }
};

/// A gray picture of any size (contact sheets, charts), row-major, 255 white.
struct GrayImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> pixels;  ///< width * height bytes
};

/// What the XML records of an entity's pixels (docs/format.md): `real_bbox` (the JSON list of its
/// ink's centre and extent) and `mask` (the run-length text "[s1,l1,...]", 1-based starts). The
/// renderer computes them; the views stay valid for the life of the process.
struct EntityMarks {
  std::string_view real_bbox;
  std::string_view mask;
};

}  // namespace rave::engine
