// The original's drawing calls one to one through OpenCV 4.6, inside the drawing module (see
// engine/render/internal/opencv_reference.hpp): rendering.py's defaults, LINE_8, shift 0,
// INTER_LINEAR, zero border.
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "common/error.hpp"
#include "engine/model/attributes.hpp"
#include "engine/render/opencv/drawing.hpp"

namespace rave::engine::opencv {
namespace {

constexpr int kOutlineWidth = 2;  // DEFAULT_WIDTH

cv::Mat wrap(std::uint8_t* data) { return cv::Mat(kPanelSize, kPanelSize, CV_8UC1, data); }

std::vector<cv::Point> polygon(const ShapeGeometry& shape) {
  std::vector<cv::Point> points;
  for (int i = 0; i < shape.vertex_count; ++i) {
    const PixelPoint& p = shape.vertices[static_cast<std::size_t>(i)];
    points.emplace_back(p.x, p.y);
  }
  return points;
}

}  // namespace

void draw_shape(const ShapeGeometry& shape, int fill, int outline, std::uint8_t* frame) {
  cv::Mat img = wrap(frame);
  const cv::Point center(shape.center.x, shape.center.y);
  switch (shape.type) {
    case kShapeNone: return;
    case kCircle:
      if (fill != 0) cv::circle(img, center, shape.radius, cv::Scalar(fill), -1);
      cv::circle(img, center, shape.radius, cv::Scalar(outline), kOutlineWidth);
      return;
    case kSquare: {
      const int d = shape.half_side;
      const cv::Point pt1(center.x - d, center.y - d), pt2(center.x + d, center.y + d);
      if (fill != 0) cv::rectangle(img, pt1, pt2, cv::Scalar(fill), -1);
      cv::rectangle(img, pt1, pt2, cv::Scalar(outline), kOutlineWidth);
      return;
    }
    default: {
      const std::vector<cv::Point> points = polygon(shape);
      if (fill != 0) cv::fillConvexPoly(img, points, cv::Scalar(fill));
      cv::polylines(img, std::vector<std::vector<cv::Point>>{points}, true, cv::Scalar(outline),
                    kOutlineWidth);
      return;
    }
  }
}

Image warp_reference(const Affine& forward, const Image& src) {
  Image dst{};
  cv::Mat m(2, 3, CV_64F);
  for (int i = 0; i < 6; ++i) m.at<double>(i / 3, i % 3) = forward.m[static_cast<std::size_t>(i)];
  cv::Mat in(kPanelSize, kPanelSize, CV_8UC1, const_cast<std::uint8_t*>(src.data()));
  cv::Mat out = wrap(dst.data());
  cv::warpAffine(in, out, m, cv::Size(kPanelSize, kPanelSize), cv::INTER_LINEAR);
  RAVE_CHECK(out.data == dst.data(), "warpAffine reallocated its output");
  return dst;
}

}  // namespace rave::engine::opencv
