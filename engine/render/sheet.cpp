// Contact sheets, drawn by the drawing module (OpenCV's Hershey fonts;
// engine/render/opencv/sheet.cpp).
#include "engine/render/sheet.hpp"

#include "engine/render/internal/drawing_module.hpp"

namespace rave::engine {

GrayImage problem_sheet(const PanelStack& panels, const SheetOptions& options) {
  return internal::drawing_module().problem_sheet(panels, options);
}

GrayImage problem_sheet(std::span<const Image> panels, const SheetOptions& options) {
  PanelStack stack;
  for (const Image& panel : panels)
    stack.pixels.insert(stack.pixels.end(), panel.begin(), panel.end());
  return problem_sheet(stack, options);
}

GrayImage problem_sheet(std::span<const Image> panels, std::optional<int> target) {
  return problem_sheet(panels, SheetOptions{.answer = target});
}

}  // namespace rave::engine
