// The reference renderer of engine/render/internal/opencv_reference.hpp: the original's drawing
// calls, made by the drawing module (engine/render/opencv/, loaded on first use), and the
// full-frame, layer-by-layer composition of rendering.py on top of them.
#include "engine/render/internal/opencv_reference.hpp"
#include "common/error.hpp"
#include "engine/model/attributes.hpp"
#include "engine/render/internal/drawing_module.hpp"

namespace rave::engine::internal {

void draw_shape(const ShapeGeometry& shape, int fill, int outline, std::uint8_t* frame) {
  drawing_module().draw_shape(shape, fill, outline, frame);
}

Image warp_reference(const Affine& forward, const Image& src) {
  return drawing_module().warp_reference(forward, src);
}

Image render_entity_reference(const Slot& slot, const Entity& entity, int color) {
  RAVE_CHECK(color >= 0 && color < static_cast<int>(kColorValues.size()),
             "Color level out of range");
  const ShapeGeometry shape = shape_geometry(slot, entity.type, entity.size);
  Image layer{};
  draw_shape(shape, 255 - kColorValues[static_cast<std::size_t>(color)], 255, layer.data());
  return warp_reference(
      rotation_matrix(shape.center, kAngleValues[static_cast<std::size_t>(entity.angle)]), layer);
}

Image render_panel_reference(ConfigId config, const Panel& panel) {
  const Configuration& c = configuration(config);
  RAVE_CHECK(panel.components.size() == c.components.size(),
             "panel does not fit its configuration");
  Image ink{};
  auto layer_add = [&ink](const Image& layer) {
    for (std::size_t i = 0; i < ink.size(); ++i)
      if (layer[i] > 0) ink[i] = layer[i];
  };
  for (std::size_t k = 0; k < c.components.size(); ++k)
    for (const Entity& e : panel.components[k].entities)
      layer_add(render_entity_reference(
          c.components[k].layout.slots.at(static_cast<std::size_t>(e.slot)), e, e.color));
  Image structure{};
  if (c.structure == "Left_Right")
    for (int y = 0; y < kPanelSize; ++y)
      structure[static_cast<std::size_t>(y * kPanelSize + 80)] = 255;
  if (c.structure == "Up_Down")
    for (int x = 0; x < kPanelSize; ++x)
      structure[static_cast<std::size_t>(80 * kPanelSize + x)] = 255;
  layer_add(structure);
  for (auto& v : ink) v = static_cast<std::uint8_t>(255 - v);
  return ink;
}

}  // namespace rave::engine::internal
