// The contact sheets of engine/render/sheet.hpp, drawn inside the drawing module.
#include "engine/render/opencv/drawing.hpp"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <string>

#include "common/error.hpp"

namespace rave::engine::opencv {
namespace {

constexpr int kGap = 12;
constexpr int kCell = kPanelSize + kGap;
constexpr int kLabel = 30;           // room for the candidate label above each candidate
constexpr double kLabelScale = 0.8;  // 17-pixel digits: still legible on a sheet shrunk to half

void paste(cv::Mat& sheet, const Image& panel, int x, int y) {
  cv::Mat view(kPanelSize, kPanelSize, CV_8UC1, const_cast<std::uint8_t*>(panel.data()));
  view.copyTo(sheet(cv::Rect(x, y, kPanelSize, kPanelSize)));
  cv::rectangle(sheet, cv::Rect(x - 1, y - 1, kPanelSize + 2, kPanelSize + 2), cv::Scalar(0), 1);
}

void draw_text(cv::Mat& sheet, const std::string& text, int x, int y, double scale) {
  cv::putText(sheet, text, cv::Point(x, y), cv::FONT_HERSHEY_SIMPLEX, scale, cv::Scalar(0), 2,
              cv::LINE_AA);
}

// The N x N matrix, its context panels row-major, the missing last panel marked "?".
void draw_matrix(cv::Mat& sheet, std::span<const Image> panels, int grid, int left) {
  const int context = grid * grid - 1;
  for (int i = 0; i < context; ++i)
    paste(sheet, panels[static_cast<std::size_t>(i)], left + (i % grid) * kCell,
          kGap + (i / grid) * kCell);
  const int x = left + (grid - 1) * kCell, y = kGap + (grid - 1) * kCell;
  cv::rectangle(sheet, cv::Rect(x - 1, y - 1, kPanelSize + 2, kPanelSize + 2), cv::Scalar(0), 1);
  draw_text(sheet, "?", x + kPanelSize / 2 - 14, y + kPanelSize / 2 + 16, 1.6);
}

void draw_candidates(cv::Mat& sheet, std::span<const Image> panels, int left, int top,
                     const SheetOptions& options) {
  const std::size_t first = panels.size() - kCandidates;
  const std::optional<int> target = options.answer;
  for (int i = 0; i < kCandidates; ++i) {
    const int x = left + (i % 4) * kCell, y = top + kLabel + (i / 4) * (kCell + kLabel);
    paste(sheet, panels[first + static_cast<std::size_t>(i)], x, y);
    const std::string label = std::to_string(options.first_label + i);
    draw_text(sheet, label + (target == i ? "  answer" : ""), x, y - 8, kLabelScale);
    if (target == i)
      cv::rectangle(sheet, cv::Rect(x - 5, y - 5, kPanelSize + 10, kPanelSize + 10), cv::Scalar(0),
                    3);
  }
}

}  // namespace

GrayImage problem_sheet(std::span<const Image> panels, const SheetOptions& options) {
  int grid = 0;
  for (int n = kMinGrid; n <= kMaxGrid; ++n)
    if (panels.size() == static_cast<std::size_t>(panel_count(n))) grid = n;
  RAVE_CHECK(grid != 0, "a sheet takes the N*N+7 panels of an N x N problem");
  const int candidates_width = kGap + 4 * kCell, matrix_width = kGap + grid * kCell;
  const int width = std::max(candidates_width, matrix_width);
  const int matrix_height = kGap + grid * kCell;
  const int height = matrix_height + 2 * (kCell + kLabel) + kGap;
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
