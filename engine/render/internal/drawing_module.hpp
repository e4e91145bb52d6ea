#pragma once
// The renderer's OpenCV calls live in a module, librave_opencv.so (engine/render/opencv/), loaded
// on first use: a command that never draws (`rave --version`, `rave convert` to .asig, `rave solve`
// on a symbolic file) then never loads OpenCV, nor the OpenBLAS, LAPACK and GLX libraries Debian's
// libopencv_core brings, which cost most of a start-up (bench/README.md "Command start-up").
//
//   const DrawingModule& m = drawing_module();   // dlopen on the first call; rave::Error if
//   missing m.draw_shape(shape, 140, 255, frame.data());
//
// Where the module is looked for, first found wins: $RAVE_OPENCV_MODULE (a file), then beside the
// executable or shared object that holds this loader and in its ../lib, then the build tree's copy.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/model/image.hpp"
#include "engine/render/entity_geometry.hpp"
#include "engine/render/sheet.hpp"

namespace rave::engine::internal {

/// Bumped whenever DrawingModule changes: a module of another layout is refused, not called.
inline constexpr int kDrawingModuleAbi = 4;

/// The module's entry points: plain function pointers over the engine's own types (the module is
/// built from the same sources and headers, by the same build, as its loader).
struct DrawingModule {
  int abi;           ///< kDrawingModuleAbi of the module's build
  std::size_t size;  ///< sizeof(DrawingModule) there: a second layout check
  void (*draw_shape)(const ShapeGeometry& shape, int fill, int outline, std::uint8_t* frame);
  Image (*warp_reference)(const Affine& forward, const Image& src);
  GrayImage (*problem_sheet)(const PanelStack& panels, const SheetOptions& options);
};

/// The loaded module (loaded once, thread-safe); throws rave::Error naming the paths tried.
const DrawingModule& drawing_module();

/// Another exported symbol of the loaded module (loads it if not yet loaded), or nullptr: the
/// tables of libraries above the renderer that draw through the same module (engine/chart).
void* drawing_module_symbol(const char* name);

/// The file the module was loaded from (loads it if not yet loaded).
const std::string& drawing_module_path();

}  // namespace rave::engine::internal

/// The module's one exported symbol.
extern "C" const rave::engine::internal::DrawingModule* rave_drawing_module();
