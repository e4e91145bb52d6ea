#pragma once
// Pixel geometry of one entity exactly as the original computes it (docs/rendering.md,
// docs/format.md#real_bbox): the truncated centre, the circumradius, the integer polygon vertices
// (same double expression order and truncations as rendering.py / api.py), the rotation matrix of
// OpenCV's getRotationMatrix2D and the XML `real_bbox`. Everything here is plain double arithmetic,
// built with -ffp-contract=off so no FMA can change a truncation.
//
//   ShapeGeometry g = shape_geometry(slot, entity.type, entity.size);
//   Affine m = rotation_matrix(g.center, kAngleValues[entity.angle]);
//   std::array<double, 4> box = real_bbox(slot, entity);   // [y_c, x_c, h, w], 4 decimals
#include <array>

#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine {

/// A pixel position: x is the column, y the row.
struct PixelPoint {
  int x = 0;
  int y = 0;
  friend bool operator==(const PixelPoint&, const PixelPoint&) = default;
};

/// Type levels (docs/format.md#value-tables) as the geometry code names them.
enum ShapeType : int {
  kShapeNone = 0,
  kTriangle = 1,
  kSquare = 2,
  kPentagon = 3,
  kHexagon = 4,
  kCircle = 5
};

/// The unrotated shape of an entity in panel pixels.
struct ShapeGeometry {
  int type = kShapeNone;  ///< Type level
  PixelPoint center;      ///< (trunc(x*160), trunc(y*160))
  double unit = 0;        ///< min(h, w) * 160 / 2
  int radius = 0;         ///< trunc(unit * size): circumradius of polygons, radius of circles
  int half_side = 0;      ///< squares: trunc(unit / 2 * sqrt(2) * size)
  /// Polygon vertices in drawing order (squares: the corners cv::rectangle walks, starting at the
  /// top left); unused for circles.
  std::array<PixelPoint, 6> vertices{};
  int vertex_count = 0;
};

/// A 2x3 affine matrix, row-major: x' = m[0] x + m[1] y + m[2], y' = m[3] x + m[4] y + m[5].
struct Affine {
  std::array<double, 6> m{};
};

/// The shape of an entity of Type level `type` and Size level `size` in `slot`.
ShapeGeometry shape_geometry(const Slot& slot, int type, int size);
/// OpenCV 4.6 getRotationMatrix2D(center, degrees, 1): counter-clockwise on screen.
Affine rotation_matrix(PixelPoint center, double degrees);
/// The inverse OpenCV's warpAffine computes (its own expression order, not a general inverse).
Affine warp_inverse(const Affine& forward);
/// XML `real_bbox` = [y_c, x_c, h, w] rounded to 4 decimals like numpy.round
/// (docs/format.md#real_bbox, api.py). Precondition: entity.type is not 0 (none).
std::array<double, 4> real_bbox(const Slot& slot, const Entity& entity);

}  // namespace rave::engine
