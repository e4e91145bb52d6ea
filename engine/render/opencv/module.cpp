// The drawing module's entry point: the table internal::drawing_module() reads after dlopen.
#include "engine/render/internal/drawing_module.hpp"
#include "engine/render/opencv/drawing.hpp"

extern "C" __attribute__((visibility("default"))) const rave::engine::internal::DrawingModule*
rave_drawing_module() {
  namespace draw = rave::engine::opencv;
  static const rave::engine::internal::DrawingModule table{
      .abi = rave::engine::internal::kDrawingModuleAbi,
      .size = sizeof(rave::engine::internal::DrawingModule),
      .draw_shape = &draw::draw_shape,
      .warp_reference = &draw::warp_reference,
      .problem_sheet = &draw::problem_sheet,
  };
  return &table;
}
