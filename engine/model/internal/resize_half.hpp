#pragma once
// The exactly-2:1 case of engine::PanelResizer (160 -> 80, what `rave train` and generate_batch's
// image_size=80 feed models), with the bytes of Pillow's bilinear resize (engine/model/resize.hpp)
// at a fraction of the work. Away from the borders Pillow's taps are exactly (1, 3, 3, 1) / 8 and
// each pass rounds to uint8, so an output is (a + 3b + 3c + d + 4) >> 3: blocks of 16 outputs in
// 16-bit lanes (AVX2 when the CPU has it, else SSE2). A block whose source window is all white
// (255, most of a RAVEN panel) is white without arithmetic, and the vertical pass skips a block
// whose four horizontal-pass rows were white. The first and last output of each axis keep Pillow's
// renormalised 32-bit taps.
//
//   internal::HalfTaps taps = ...;                         // PanelResizer's border taps
//   if (internal::half_kernel_fits(80)) internal::resize_half(src160, dst80, 80, taps);
#include <array>
#include <cstdint>

namespace rave::engine::internal {

/// Pillow's fixed-point taps (22 fractional bits) of the first and the last output of an axis,
/// tap t reading source 2x - 1 + t (the first output's tap 0 and the last's tap 3 read outside
/// the panel and are zero).
struct HalfTaps {
  std::array<std::int32_t, 4> first{};
  std::array<std::int32_t, 4> last{};
};

/// The instruction sets of the kernel; every one gives the same bytes.
enum class HalfKernel { kSse2, kAvx2 };

/// Whether this build and CPU can run `kernel`.
bool half_kernel_available(HalfKernel kernel);

/// Whether resize_half handles `out` (SSE2 built in, out a multiple of 16 in 32 .. 512).
bool half_kernel_fits(int out);

/// Resizes a row-major (2 out) x (2 out) panel to out x out with the best available kernel.
/// Needs half_kernel_fits(out). Thread-safe (per-thread scratch).
void resize_half(const std::uint8_t* src, std::uint8_t* dst, int out, const HalfTaps& taps);
/// The same with `kernel`, which must be available (tests hold every kernel to Pillow's bytes).
void resize_half(const std::uint8_t* src, std::uint8_t* dst, int out, const HalfTaps& taps,
                 HalfKernel kernel);

}  // namespace rave::engine::internal
