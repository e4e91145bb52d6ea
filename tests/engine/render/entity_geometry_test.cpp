// Entity geometry against the numbers of docs/rendering.md#geometry and docs/format.md#example:
// circumradii and square half sides per Size level (the truncations depend on the double expression
// order, e.g. 0.33 * 160 / 2 = 26.400000000000002), the rotation matrix, and real_bbox values of
// the example.
#include "engine/render/entity_geometry.hpp"

#include <gtest/gtest.h>

#include "engine/model/attributes.hpp"

namespace rave::engine {
namespace {

std::vector<int> radii(const Slot& slot, int type) {
  std::vector<int> out;
  for (int size = 0; size < 6; ++size) {
    const ShapeGeometry g = shape_geometry(slot, type, size);
    out.push_back(type == kSquare ? g.half_side : g.radius);
  }
  return out;
}

TEST(EntityGeometry, RadiiPerSizeLevelMatchSpecSection10) {
  const Slot full{.y = 0.5, .x = 0.5, .h = 1, .w = 1}, quarter{0.25, 0.25, 0.5, 0.5},
      ninth{0.16, 0.16, 0.33, 0.33}, inner{0.42, 0.42, 0.15, 0.15};
  EXPECT_EQ(radii(full, kCircle), (std::vector<int>{32, 40, 48, 56, 64, 72}));
  EXPECT_EQ(radii(quarter, kTriangle), (std::vector<int>{16, 20, 24, 28, 32, 36}));
  EXPECT_EQ(radii(ninth, kHexagon), (std::vector<int>{10, 13, 15, 18, 21, 23}));
  EXPECT_EQ(radii(inner, kPentagon), (std::vector<int>{4, 6, 7, 8, 9, 10}));
  EXPECT_EQ(radii(full, kSquare), (std::vector<int>{22, 28, 33, 39, 45, 50}));
  EXPECT_EQ(shape_geometry(ninth, kCircle, 0).center,
            (PixelPoint{25, 25}));  // trunc(0.16 * 160) = 25
}

TEST(EntityGeometry, PolygonVerticesKeepTheOriginalsTruncations) {
  const ShapeGeometry tri = shape_geometry({0.5, 0.5, 1, 1}, kTriangle, 5);  // R = 72
  ASSERT_EQ(tri.vertex_count, 3);
  EXPECT_EQ(tri.vertices[0], (PixelPoint{80, 8}));
  EXPECT_EQ(tri.vertices[1], (PixelPoint{80 + 62, 80 + 36}));  // trunc(36 * sqrt 3) = 62
  const ShapeGeometry pent = shape_geometry({0.5, 0.5, 1, 1}, kPentagon, 5);
  EXPECT_EQ(pent.vertices[1],
            (PixelPoint{80 - 68, 80 - 22}));  // trunc(72 cos 18) = 68, trunc(72 sin 18) = 22
  EXPECT_EQ(pent.vertices[2],
            (PixelPoint{80 - 42, 80 + 58}));  // trunc(72 sin 36) = 42, trunc(72 cos 36) = 58
}

TEST(EntityGeometry, RotationMatrixIsOpenCVsAndWarpInverseUndoesIt) {
  const Affine m = rotation_matrix({80, 80}, 90);
  EXPECT_NEAR(m.m[0], 0, 1e-15);
  EXPECT_DOUBLE_EQ(m.m[1], 1);
  // cos 90 degrees is 6.1e-17, not 0, so (1 - cos) * 80 - sin * 80 is -1.4e-14, not 0: the
  // fixed-point warp sees such residues, which is why the matrix is built in OpenCV's own
  // expression order.
  EXPECT_NE(m.m[2], 0);
  EXPECT_NEAR(m.m[2], 0, 1e-13);
  EXPECT_DOUBLE_EQ(m.m[5], 160);  // sin * 80 + (1 - cos) * 80
  const Affine inv = warp_inverse(m);
  const double x = 30, y = 50, fx = m.m[0] * x + m.m[1] * y + m.m[2],
               fy = m.m[3] * x + m.m[4] * y + m.m[5];
  EXPECT_NEAR(inv.m[0] * fx + inv.m[1] * fy + inv.m[2], x, 1e-12);
  EXPECT_NEAR(inv.m[3] * fx + inv.m[4] * fy + inv.m[5], y, 1e-12);
}

TEST(EntityGeometry, RealBboxOfTheSpecExample) {
  const Slot full{.y = 0.5, .x = 0.5, .h = 1, .w = 1};
  // docs/format.md#example, RAVEN_1_train.xml of center_single: Type 2 (square) Size 2/3/5 at Angle
  // 1 (-90 degrees).
  EXPECT_EQ(real_bbox(full, {0, kSquare, 2, 6, 1}),
            (std::array<double, 4>{0.5, 0.5, 0.4312, 0.4312}));
  EXPECT_EQ(real_bbox(full, {0, kSquare, 3, 4, 1}),
            (std::array<double, 4>{0.5, 0.5, 0.5063, 0.5063}));
  EXPECT_EQ(real_bbox(full, {0, kSquare, 5, 2, 1}),
            (std::array<double, 4>{0.5, 0.5, 0.6438, 0.6438}));
  // Circles: un-truncated radius, 0.71875 rounds half to even to 0.7188.
  EXPECT_EQ(real_bbox(full, {0, kCircle, 3, 6, 4}),
            (std::array<double, 4>{0.5, 0.5, 0.7188, 0.7188}));
  EXPECT_EQ(real_bbox(full, {0, kCircle, 1, 2, 4}),
            (std::array<double, 4>{0.5, 0.5, 0.5188, 0.5188}));
  // A pentagon at 45 degrees is off-centre: [0.5155, 0.5155, 0.5712, 0.5712].
  EXPECT_EQ(real_bbox(full, {0, kPentagon, 2, 2, 4}),
            (std::array<double, 4>{0.5155, 0.5155, 0.5712, 0.5712}));
}

}  // namespace
}  // namespace rave::engine
