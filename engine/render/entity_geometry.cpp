#include "engine/render/entity_geometry.hpp"

#include <algorithm>
#include <cmath>

#include "common/error.hpp"
#include "common/pyformat.hpp"
#include "engine/model/attributes.hpp"

namespace rave::engine {
namespace {

constexpr double kImageSize = 160;  // IMAGE_SIZE of the original (an int there; exact here)
constexpr double kPi = 3.141592653589793;

// int() of the original: truncation toward zero.
int trunc_int(double v) { return static_cast<int>(v); }

// The vertex lists of rendering.py / api.py. Each coordinate expression keeps the original's
// evaluation order: `dl / 2.0 * sqrt(3)` is (dl / 2.0) * sqrt(3).
void polygon_vertices(ShapeGeometry& g) {
  const int cx = g.center.x, cy = g.center.y, dl = g.radius;
  auto& v = g.vertices;
  const int h = trunc_int(dl / 2.0 * std::sqrt(3.0));
  const int half = trunc_int(dl / 2.0);
  switch (g.type) {
    case kTriangle:
      v[0] = {cx, cy - dl};
      v[1] = {cx + h, cy + half};
      v[2] = {cx - h, cy + half};
      g.vertex_count = 3;
      break;
    case kPentagon: {
      const int c10 = trunc_int(dl * std::cos(kPi / 10)), s10 = trunc_int(dl * std::sin(kPi / 10));
      const int s5 = trunc_int(dl * std::sin(kPi / 5)), c5 = trunc_int(dl * std::cos(kPi / 5));
      v[0] = {cx, cy - dl};
      v[1] = {cx - c10, cy - s10};
      v[2] = {cx - s5, cy + c5};
      v[3] = {cx + s5, cy + c5};
      v[4] = {cx + c10, cy - s10};
      g.vertex_count = 5;
      break;
    }
    case kHexagon:
      v[0] = {cx, cy - dl};
      v[1] = {cx - h, cy - half};
      v[2] = {cx - h, cy + half};
      v[3] = {cx, cy + dl};
      v[4] = {cx + h, cy + half};
      v[5] = {cx + h, cy - half};
      g.vertex_count = 6;
      break;
    default: break;
  }
}

// cv::rectangle walks pt1, (pt2.x, pt1.y), pt2, (pt1.x, pt2.y).
void square_vertices(ShapeGeometry& g) {
  const int cx = g.center.x, cy = g.center.y, d = g.half_side;
  g.vertices[0] = {cx - d, cy - d};
  g.vertices[1] = {cx + d, cy - d};
  g.vertices[2] = {cx + d, cy + d};
  g.vertices[3] = {cx - d, cy + d};
  g.vertex_count = 4;
}

}  // namespace

ShapeGeometry shape_geometry(const Slot& slot, int type, int size) {
  RAVE_CHECK(type >= 0 && type < static_cast<int>(kTypeNames.size()), "Type level out of range");
  RAVE_CHECK(size >= 0 && size < static_cast<int>(kSizeValues.size()), "Size level out of range");
  ShapeGeometry g;
  g.type = type;
  g.center = {trunc_int(slot.x * kImageSize), trunc_int(slot.y * kImageSize)};
  g.unit = std::min(slot.h, slot.w) * kImageSize / 2;
  const double scale = kSizeValues[static_cast<std::size_t>(size)];
  g.radius = trunc_int(g.unit * scale);
  if (type == kSquare) {
    g.half_side = trunc_int(g.unit / 2 * std::sqrt(2.0) * scale);
    square_vertices(g);
  } else {
    polygon_vertices(g);
  }
  return g;
}

Affine rotation_matrix(PixelPoint center, double degrees) {
  // cv::getRotationMatrix2D_: the centre arrives as Point2f (exact for pixel integers).
  const double angle = degrees * (kPi / 180);
  const double alpha = std::cos(angle), beta = std::sin(angle);
  const double x = static_cast<float>(center.x), y = static_cast<float>(center.y);
  return Affine{
      {alpha, beta, (1 - alpha) * x - beta * y, -beta, alpha, beta * x + (1 - alpha) * y}};
}

Affine warp_inverse(const Affine& forward) {
  // cv::warpAffine without WARP_INVERSE_MAP, statement by statement.
  auto M = forward.m;
  double D = M[0] * M[4] - M[1] * M[3];
  D = D != 0 ? 1. / D : 0;
  const double a11 = M[4] * D, a22 = M[0] * D;
  M[0] = a11;
  M[1] *= -D;
  M[3] *= -D;
  M[4] = a22;
  const double b1 = -M[0] * M[2] - M[1] * M[5];
  const double b2 = -M[3] * M[2] - M[4] * M[5];
  M[2] = b1;
  M[5] = b2;
  return Affine{M};
}

std::array<double, 4> real_bbox(const Slot& slot, const Entity& entity) {
  RAVE_CHECK(entity.type != kShapeNone, "real_bbox of a 'none' entity");
  const ShapeGeometry g = shape_geometry(slot, entity.type, entity.size);
  const double delta = 2 * 1.5 / kImageSize;  // DEFAULT_WIDTH * 1.5 / IMAGE_SIZE
  std::array<double, 4> box{};
  if (g.type == kCircle) {
    const double radius = g.unit * kSizeValues[static_cast<std::size_t>(entity.size)];
    const double extent = 2 * radius / kImageSize + delta;
    box = {g.center.y * 1.0 / kImageSize, g.center.x * 1.0 / kImageSize, extent, extent};
  } else {
    // np.dot(M, homo_pts.T): each row accumulated in index order, m0*x + m1*y + m2*1.
    const Affine m =
        rotation_matrix(g.center, kAngleValues[static_cast<std::size_t>(entity.angle)]);
    double min_x = INFINITY, max_x = -INFINITY, min_y = INFINITY, max_y = -INFINITY;
    for (int i = 0; i < g.vertex_count; ++i) {
      const double px = g.vertices[static_cast<std::size_t>(i)].x;
      const double py = g.vertices[static_cast<std::size_t>(i)].y;
      const double col = m.m[0] * px + m.m[1] * py + m.m[2];
      const double row = m.m[3] * px + m.m[4] * py + m.m[5];
      min_y = std::min(min_y, col);  // api.py names rows "x"
      max_y = std::max(max_y, col);
      min_x = std::min(min_x, row);
      max_x = std::max(max_x, row);
    }
    min_x /= kImageSize;
    max_x /= kImageSize;
    min_y /= kImageSize;
    max_y /= kImageSize;
    box = {(min_x + max_x) / 2, (min_y + max_y) / 2, max_x - min_x + delta, max_y - min_y + delta};
  }
  for (double& v : box) v = numpy_round(v, 4);
  return box;
}

}  // namespace rave::engine
