#pragma once
// The original's drawing calls, one to one, through OpenCV 4.6 (docs/rendering.md; rendering.py),
// made by the drawing module (engine/render/opencv/, the only code that touches OpenCV, loaded on
// first use: engine/render/internal/drawing_module.hpp). The fast renderer
// (engine/render/render.cpp) uses the drawing to build its per-entity templates; the full-frame
// warp and panel renderer here are the straightforward reference the tests hold the fast path
// against.
//
//   Image frame{};                                  // ink 0
//   draw_shape(shape_geometry(slot, 5, 3), 140, 255, frame.data());
//   Image rotated = warp_reference(rotation_matrix(center, 45), frame);
#include <cstdint>

#include "engine/render/entity_geometry.hpp"
#include "engine/render/render.hpp"

namespace rave::engine::internal {

/// Draws an unrotated shape into a 160x160 ink frame like draw_triangle/... of rendering.py:
/// when `fill` is nonzero the interior is filled with it first; the closed outline (thickness 2,
/// 8-connected) is drawn with `outline`.
void draw_shape(const ShapeGeometry& shape, int fill, int outline, std::uint8_t* frame);
/// cv::warpAffine(src, forward, 160x160, INTER_LINEAR, BORDER_CONSTANT 0) on a whole frame.
Image warp_reference(const Affine& forward, const Image& src);
/// render_entity of rendering.py: the entity alone on ink 0, filled with 255 - gray(color level
/// `color`), outlined, rotated by its Angle.
Image render_entity_reference(const Slot& slot, const Entity& entity, int color);
/// render_panel of rendering.py, full-frame layer by layer: the reference for render_panel.
Image render_panel_reference(ConfigId config, const Panel& panel);

}  // namespace rave::engine::internal
