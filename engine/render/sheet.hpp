#pragma once
// Contact sheets: the N x N matrix (the missing panel marked "?") above the 8 candidates, numbered
// 0..7 as in the npz `target`, the answer framed when known. 160-pixel panels at every N, so a
// 10 x 10 sheet is 1732 pixels wide. Used by `rave show` and `rave demo`;
// engine/formats/png.hpp turns the picture into a PNG file.
//
//   GrayImage sheet = problem_sheet(render_problem(problem), problem.target);
//   write_file_atomic("sheet.png", encode_gray_png(sheet));
#include <optional>
#include <span>

#include "engine/model/image.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine {

/// The sheet of a problem's N*N+7 panels (the context, then the candidates), N in 3..10.
GrayImage problem_sheet(std::span<const Image> panels, std::optional<int> target);

}  // namespace rave::engine
