#pragma once
// Panel resizing exactly as the original loader did it: scipy.misc.imresize on uint8, i.e. Pillow's
// bilinear resampling (Resample.c), which is scale-aware (docs/neural-reference.md). A pure
// function on the model's pixels (no OpenCV, no torch): `rave train` (neural/) and the Python
// package's in-memory batches (faces/python/) feed their models through this one resizer. Downscaling 160
// -> 80 widens the triangle filter to 4 taps ([1,3,3,1]/8); upscaling 160 -> 224 is half-pixel
// bilinear with edge clamp. Pillow's fixed-point arithmetic (22 fractional bits, a horizontal pass
// rounded to uint8, then a vertical pass) is reproduced, so results are Pillow's bytes.
// LibTorch's interpolate(bilinear, antialias=true) computes the same filter in floating point
// (checked in tests/neural to +-1 grey level).
//
//   PanelResizer resize(160, 80);
//   resize(src160x160, dst80x80);      // row-major uint8, square panels
#include <cstdint>
#include <vector>

#include "engine/model/internal/resize_half.hpp"

namespace rave::engine {

class PanelResizer {
 public:
  /// A resizer from in_size x in_size to out_size x out_size (both >= 1).
  PanelResizer(int in_size, int out_size);
  /// Resizes one row-major panel; `dst` holds out_size^2 bytes. Thread-safe (no shared scratch).
  void operator()(const std::uint8_t* src, std::uint8_t* dst) const;
  int in_size() const { return in_; }
  int out_size() const { return out_; }

 private:
  /// Pillow's precompute_coeffs + normalize_coeffs_8bpc for one axis.
  void precompute();
  /// For in = 2 x out: the same coefficients as 4 taps at source 2x-1 .. 2x+2 (zeros where
  /// Pillow's clamped window is shorter); checks the interior ones are (1, 3, 3, 1) / 8.
  void precompute_half();
  /// The taps of every output moved into one window of ksize_ source pixels that stays inside the
  /// image (zero weights outside Pillow's own window): a loop of fixed length per output.
  void precompute_window();
  void horizontal_generic(const std::uint8_t* src, std::uint8_t* mid) const;
  template <int K>
  void horizontal_window(const std::uint8_t* src, std::uint8_t* mid) const;
  void horizontal_half(const std::uint8_t* src, std::uint8_t* mid) const;
  void vertical_row(const std::uint8_t* mid, std::uint8_t* dst, int yy, std::int32_t* acc) const;
  int in_;
  int out_;
  int ksize_ = 0;                     ///< coefficients stored per output pixel
  std::vector<int> first_;            ///< first source index per output pixel
  std::vector<int> count_;            ///< number of taps per output pixel
  std::vector<std::int32_t> coeffs_;  ///< out_ x ksize_, fixed point
  std::vector<std::int32_t> half_;    ///< 4 x out_ taps when in = 2 x out (else empty)
  internal::HalfTaps edge_taps_;      ///< half_'s taps of the first and last output
  std::vector<int> window_first_;     ///< first source index of each output's fixed window
  std::vector<std::int32_t> window_;  ///< out_ x ksize_ taps over those windows (empty: none)
};

}  // namespace rave::engine
