#pragma once
// Contact sheets and PNG files: the 3x3 matrix (the missing panel marked "?") above the 8
// candidates, numbered 0..7 as in the npz `target`, the answer framed when known. Used by
// `rave show`; also the generic gray-image PNG encoder of the engine.
//
//   std::string png = problem_sheet_png(images, /*target=*/3);
//   write_file_atomic("sheet.png", png);
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "engine/render.hpp"

namespace rave::engine {

/// PNG bytes of a width x height 8-bit gray image (row-major).
std::string encode_gray_png(std::span<const std::uint8_t> pixels, int width, int height);
/// PNG bytes of the sheet of 16 panels (8 context, 8 candidates).
std::string problem_sheet_png(std::span<const Image, 16> panels, std::optional<int> target);

}  // namespace rave::engine
