// OpenCV side of the renderer (see engine/render/internal/opencv_reference.hpp). Every call mirrors
// rendering.py of the original with OpenCV's defaults: LINE_8, shift 0, INTER_LINEAR, zero border.
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "common/error.hpp"
#include "engine/model/attributes.hpp"
#include "engine/render/internal/opencv_reference.hpp"

namespace rave::engine::internal {
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
    case kShapeNone:
      return;
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

Image render_entity_reference(const Slot& slot, const Entity& entity, int color) {
  RAVE_CHECK(color >= 0 && color < static_cast<int>(kColorValues.size()), "Color level out of range");
  const ShapeGeometry shape = shape_geometry(slot, entity.type, entity.size);
  Image layer{};
  draw_shape(shape, 255 - kColorValues[static_cast<std::size_t>(color)], 255, layer.data());
  return warp_reference(
      rotation_matrix(shape.center, kAngleValues[static_cast<std::size_t>(entity.angle)]), layer);
}

Image render_panel_reference(ConfigId config, const Panel& panel) {
  const Configuration& c = configuration(config);
  RAVE_CHECK(panel.components.size() == c.components.size(), "panel does not fit its configuration");
  Image ink{};
  auto layer_add = [&ink](const Image& layer) {
    for (std::size_t i = 0; i < ink.size(); ++i)
      if (layer[i] > 0) ink[i] = layer[i];
  };
  for (std::size_t k = 0; k < c.components.size(); ++k)
    for (const Entity& e : panel.components[k].entities)
      layer_add(render_entity_reference(c.components[k].layout.slots.at(static_cast<std::size_t>(e.slot)),
                                        e, e.color));
  Image structure{};
  if (c.structure == "Left_Right")
    for (int y = 0; y < kPanelSize; ++y) structure[static_cast<std::size_t>(y * kPanelSize + 80)] = 255;
  if (c.structure == "Up_Down")
    for (int x = 0; x < kPanelSize; ++x) structure[static_cast<std::size_t>(80 * kPanelSize + x)] = 255;
  layer_add(structure);
  for (auto& v : ink) v = static_cast<std::uint8_t>(255 - v);
  return ink;
}

}  // namespace rave::engine::internal
