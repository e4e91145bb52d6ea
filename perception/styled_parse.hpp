#pragma once
// A render style's panel read back to symbols (docs/perception.md#render-styles): component by
// component, slot by slot, each entity is read by analysis by synthesis with the style's renderer
// (perception/styled_entity.hpp) and drawn onto a canvas, so that the next slot is read over what
// lies below it (In entities over the Out shape); the whole parse is then drawn and must give the
// image back byte for byte. Nothing is tabulated, so any level count and confounders are read.
// Thread-safe: one parser may read panels on many threads.
//
//   StyledParser parser(parse_style("clean"), Variant{.values = 20, .confounders = 2});
//   double residual = 0;
//   PanelParse p = parser.parse(ConfigId::kDistributeNine, image, residual);
//   if (p.exact) use(p.panel);     // p.panel.components[c].confounders: 2 per entity
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>

#include "engine/model/look.hpp"
#include "perception/panel_parse.hpp"
#include "perception/styled_entity.hpp"
#include "perception/styled_layout.hpp"

namespace rave::perception {

class StyledParser {
 public:
  StyledParser(const engine::RenderStyle& style, const engine::Variant& variant);
  /// Parses `image` (side x side bytes) as a panel of `config`; `residual` gets the mean absolute
  /// difference per pixel between the image and the parse's drawing (255 when a component's
  /// entity count is not one its layout allows). exact: that drawing is the image.
  /// With `give_up`, stops at the first slot not read exactly (residual then 255): enough to
  /// tell whether the panel is one of `config`.
  PanelParse parse(engine::ConfigId config, const std::uint8_t* image, double& residual,
                   bool give_up = false) const;
  /// Whether the middle column (or row) is a separator of the style's line gray.
  bool separator(const std::uint8_t* image, bool column) const;

 private:
  const StyledLayout& layout(engine::ConfigId config) const;

  engine::RenderStyle style_;
  engine::Variant variant_;
  engine::LevelLooks looks_;
  EntityReader reader_;
  mutable std::array<std::once_flag, engine::kNumConfigs> once_;
  mutable std::array<std::unique_ptr<StyledLayout>, engine::kNumConfigs> layouts_;
};

/// The parser of a style and variant (values, confounders), made on first use and shared by the
/// whole process: its layouts and the slots it has read are kept.
const StyledParser& styled_parser(const engine::RenderStyle& style, const engine::Variant& variant);

}  // namespace rave::perception
