#pragma once
// Contact sheets: the N x N matrix (the missing panel marked "?") above the 8 candidates, labelled
// 0..7 as in the npz `target` (or 1..8, as a model is asked to answer), the answer framed only when
// it is given. Panels keep their side (160 pixels for the original style, so a 10 x 10 sheet is
// 1732 pixels wide). Used by
// `rave show`, `rave demo` and the image benchmarks of evaluation/export/vlm.hpp; engine/formats/png.hpp
// turns the picture into a PNG file.
//
//   GrayImage sheet = problem_sheet(render_problem(problem), problem.target);
//   GrayImage blind = problem_sheet(images, SheetOptions{.first_label = 1});   // answer-free, 1..8
//   write_file_atomic("sheet.png", encode_gray_png(sheet));
#include <optional>
#include <span>

#include "engine/model/image.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine {

/// How a sheet is drawn.
struct SheetOptions {
  std::optional<int> answer = {};  ///< the candidate framed and marked "answer"; none: answer-free
  int first_label = 0;             ///< the first candidate's label: 0 (npz `target`) or 1
};

/// The sheet of a problem's N*N+7 panels (the context, then the candidates), N in 3..10, of any
/// side (a render style's: the sheet grows with it).
GrayImage problem_sheet(const PanelStack& panels, const SheetOptions& options);
/// The same of 160-pixel panels.
GrayImage problem_sheet(std::span<const Image> panels, const SheetOptions& options);
/// The same labelled 0..7, `target` framed when known.
GrayImage problem_sheet(std::span<const Image> panels, std::optional<int> target);

}  // namespace rave::engine
