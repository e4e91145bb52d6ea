#pragma once
// An exact re-implementation of OpenCV 4.6's cv::warpAffine for 8-bit single-channel images with
// INTER_LINEAR and a zero constant border (imgwarp.cpp: WarpAffineInvoker + remapBilinear), so the
// renderer can warp just the pixels an entity touches. Fixed point throughout: the inverse matrix
// is scaled by AB_SCALE = 2^10 with per-column deltas rounded once (`adelta`, `bdelta`), positions
// keep INTER_BITS = 5 fractional bits, and the 32x32 table of 4 int16 weights
// (INTER_REMAP_COEF_BITS = 15) is built from floats like initInterTab2D, including its saturation
// of the weight 1.0 and the sum correction that follows. Tests hold it against cv::warpAffine.
//
//   const FixedPointWarp warp(rotation_matrix(center, 45));
//   SamplePoint p = warp.sample(x, y);       // source pixel (p.sx, p.sy) and its weight row
//   const auto& w = bilinear_weights()[p.weights];
#include <array>
#include <cstdint>

#include "engine/render/entity_geometry.hpp"
#include "engine/render/render.hpp"

namespace rave::engine {

/// Weights of the 2x2 neighbourhood (top-left, top-right, bottom-left, bottom-right), 32x32
/// fractional positions (index = 32 * y_fraction + x_fraction); each row sums to 2^15.
using BilinearWeights = std::array<std::array<std::int16_t, 4>, 32 * 32>;
/// OpenCV's BilinearTab_i, bit for bit.
const BilinearWeights& bilinear_weights();

/// Where cv::warpAffine samples the source for one destination pixel.
struct SamplePoint {
  int sx = 0;       ///< left column of the 2x2 neighbourhood (may lie outside the image)
  int sy = 0;       ///< top row of the 2x2 neighbourhood
  int weights = 0;  ///< row of bilinear_weights()
};

/// The fixed-point sampling grid of one cv::warpAffine call on a 160x160 panel.
class FixedPointWarp {
 public:
  /// `forward` maps source to destination, as passed to cv::warpAffine.
  explicit FixedPointWarp(const Affine& forward);
  /// The sample of destination pixel (x, y), 0 <= x, y < 160.
  SamplePoint sample(int x, int y) const { return sample(row(y), x); }

  /// The per-row part of the sampling (X0, Y0 of OpenCV's WarpAffineInvoker).
  struct Row {
    int x0 = 0, y0 = 0;
  };
  /// Row `y` of the grid, to sample many pixels of one row.
  Row row(int y) const;
  /// The sample of pixel x of a row.
  SamplePoint sample(const Row& row, int x) const;

 private:
  Affine inverse_;
  std::array<int, kPanelSize> adelta_{}, bdelta_{};
};

/// cv::warpAffine(src, forward, 160x160, INTER_LINEAR, BORDER_CONSTANT 0), whole frame.
Image warp_bilinear(const Affine& forward, const Image& src);

}  // namespace rave::engine
