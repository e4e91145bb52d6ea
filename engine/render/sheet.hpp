#pragma once
// Contact sheets: the 3x3 matrix (the missing panel marked "?") above the 8 candidates, numbered
// 0..7 as in the npz `target`, the answer framed when known. Used by `rave show` and `rave demo`;
// engine/formats/png.hpp turns the picture into a PNG file.
//
//   GrayImage sheet = problem_sheet(render_problem(problem), problem.target);
//   write_file_atomic("sheet.png", encode_gray_png(sheet));
#include <optional>
#include <span>

#include "engine/model/image.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine {

/// The sheet of a problem's kPanels panels (the context, then the candidates).
GrayImage problem_sheet(std::span<const Image, kPanels> panels, std::optional<int> target);

}  // namespace rave::engine
