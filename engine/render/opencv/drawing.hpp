#pragma once
// The drawing module's own functions (librave_opencv.so, the only code of rave that calls OpenCV):
// what engine/render reaches through internal::drawing_module(). Nothing outside
// engine/render/opencv/ includes this header; the public forms are in sheet.hpp and
// internal/opencv_reference.hpp (engine/chart/ adds its charts to the module).
//
//   Image frame{};
//   opencv::draw_shape(shape, 140, 255, frame.data());   // as cv::fillConvexPoly + cv::polylines
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/model/image.hpp"
#include "engine/render/entity_geometry.hpp"
#include "engine/render/sheet.hpp"

namespace rave::engine::opencv {

/// internal::draw_shape: an unrotated shape, filled then outlined, as rendering.py draws it.
void draw_shape(const ShapeGeometry& shape, int fill, int outline, std::uint8_t* frame);
/// internal::warp_reference: cv::warpAffine of a whole 160x160 frame, INTER_LINEAR, zero border.
Image warp_reference(const Affine& forward, const Image& src);
/// engine::problem_sheet.
GrayImage problem_sheet(const PanelStack& panels, const SheetOptions& options);

}  // namespace rave::engine::opencv
