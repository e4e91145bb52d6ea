// The contact sheets of engine/render/sheet.hpp, drawn inside the drawing module.
#include "engine/render/opencv/drawing.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <string>

#include "common/error.hpp"

namespace rave::engine::opencv {
namespace {

constexpr int kGap = 12;
constexpr int kLabel = 30;           // room for the candidate label above each candidate
constexpr double kLabelScale = 0.8;  // 17-pixel digits: still legible on a sheet shrunk to half

// Panels of any side (a render style's), laid out in cells of side + kGap.
struct Panels {
  const PanelStack& stack;
  int side() const { return stack.side; }
  int cell() const { return stack.side + kGap; }
};

void paste(cv::Mat& sheet, const Panels& panels, int i, int x, int y) {
  const int side = panels.side();
  cv::Mat view(side, side, CV_8UC1, const_cast<std::uint8_t*>(panels.stack.panel(i)));
  view.copyTo(sheet(cv::Rect(x, y, side, side)));
  cv::rectangle(sheet, cv::Rect(x - 1, y - 1, side + 2, side + 2), cv::Scalar(0), 1);
}

void draw_text(cv::Mat& sheet, const std::string& text, int x, int y, double scale) {
  cv::putText(sheet, text, cv::Point(x, y), cv::FONT_HERSHEY_SIMPLEX, scale, cv::Scalar(0), 2,
              cv::LINE_AA);
}

// The N x N matrix, its context panels row-major, the missing last panel marked "?".
void draw_matrix(cv::Mat& sheet, const Panels& panels, int grid, int left) {
  const int context = grid * grid - 1, cell = panels.cell(), side = panels.side();
  for (int i = 0; i < context; ++i)
    paste(sheet, panels, i, left + (i % grid) * cell, kGap + (i / grid) * cell);
  const int x = left + (grid - 1) * cell, y = kGap + (grid - 1) * cell;
  cv::rectangle(sheet, cv::Rect(x - 1, y - 1, side + 2, side + 2), cv::Scalar(0), 1);
  draw_text(sheet, "?", x + side / 2 - 14, y + side / 2 + 16, 1.6);
}

void draw_candidates(cv::Mat& sheet, const Panels& panels, int left, int top,
                     const SheetOptions& options) {
  const int first = panels.stack.count() - kCandidates, cell = panels.cell();
  const int side = panels.side();
  const std::optional<int> target = options.answer;
  for (int i = 0; i < kCandidates; ++i) {
    const int x = left + (i % 4) * cell, y = top + kLabel + (i / 4) * (cell + kLabel);
    paste(sheet, panels, first + i, x, y);
    const std::string label = std::to_string(options.first_label + i);
    draw_text(sheet, label + (target == i ? "  answer" : ""), x, y - 8, kLabelScale);
    if (target == i)
      cv::rectangle(sheet, cv::Rect(x - 5, y - 5, side + 10, side + 10), cv::Scalar(0), 3);
  }
}

}  // namespace

GrayImage problem_sheet(const PanelStack& stack, const SheetOptions& options) {
  int grid = 0;
  for (int n = kMinGrid; n <= kMaxGrid; ++n)
    if (stack.count() == panel_count(n)) grid = n;
  RAVE_CHECK(grid != 0, "a sheet takes the N*N+7 panels of an N x N problem");
  const Panels panels{stack};
  const int cell = panels.cell();
  const int candidates_width = kGap + 4 * cell, matrix_width = kGap + grid * cell;
  const int width = std::max(candidates_width, matrix_width);
  const int matrix_height = kGap + grid * cell;
  const int height = matrix_height + 2 * (cell + kLabel) + kGap;
  GrayImage out{.width = width,
                .height = height,
                .pixels = std::vector<std::uint8_t>(
                    static_cast<std::size_t>(width) * static_cast<std::size_t>(height), 255)};
  cv::Mat sheet(height, width, CV_8UC1, out.pixels.data());
  draw_matrix(sheet, panels, grid, (width - matrix_width) / 2 + kGap);
  cv::line(sheet, cv::Point(kGap, matrix_height), cv::Point(width - kGap, matrix_height),
           cv::Scalar(128), 1);
  draw_candidates(sheet, panels, (width - candidates_width) / 2 + kGap, matrix_height, options);
  return out;
}

}  // namespace rave::engine::opencv
