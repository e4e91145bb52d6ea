// Contact sheets, drawn by the drawing module (OpenCV's Hershey fonts;
// engine/render/opencv/sheet.cpp).
#include "engine/render/sheet.hpp"

#include "engine/render/internal/drawing_module.hpp"

namespace rave::engine {

GrayImage problem_sheet(std::span<const Image> panels, std::optional<int> target) {
  return internal::drawing_module().problem_sheet(panels, target);
}

}  // namespace rave::engine
