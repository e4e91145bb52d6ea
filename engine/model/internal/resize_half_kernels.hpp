#pragma once
// The per-instruction-set passes behind internal::resize_half (resize_half.hpp), each a block of
// 16 outputs at a time; the horizontal pass writes its rows' border outputs with Pillow's taps
// (half_row_edges), resize_half the border rows of the output.
//
//   half_rows_avx2(src, out, taps, mid, white);   // 2 out rows of out bytes; white[y] bit b: white
//   half_columns_avx2(mid, white, out, dst);   // output rows 1 .. out - 2
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "engine/model/internal/resize_half.hpp"

namespace rave::engine::internal {

/// Outputs per block: one 128-bit store.
inline constexpr int kHalfBlock = 16;

/// One border output with Pillow's 32-bit taps (22 fractional bits) from three source values read
/// `stride` bytes apart (the fourth tap reads outside the panel).
inline std::uint8_t half_edge(const std::uint8_t* p, std::ptrdiff_t stride,
                              const std::int32_t* taps) {
  const std::int32_t acc =
      (1 << 21) + p[0] * taps[0] + p[stride] * taps[1] + p[2 * stride] * taps[2];
  return static_cast<std::uint8_t>(std::clamp(acc >> 22, 0, 255));
}

/// Output 0 (source 0, 1, 2 with taps 1..3) and out - 1 (source 2 out - 3 .. 2 out - 1 with taps
/// 0..2) of a horizontal-pass row, each unless its block is white.
inline void half_row_edges(const std::uint8_t* row, int out, std::uint32_t white,
                           const HalfTaps& taps, std::uint8_t* mid) {
  if (!(white & 1u)) mid[0] = half_edge(row, 1, taps.first.data() + 1);
  if (!(white >> (out / kHalfBlock - 1) & 1u))
    mid[out - 1] = half_edge(row + 2 * out - 3, 1, taps.last.data());
}

/// The horizontal pass of every source row (2 out of them): mid row y, and white[y]'s bit b set
/// when block b's source window is all white (its outputs are then 255).
void half_rows_sse2(const std::uint8_t* src, int out, const HalfTaps& taps, std::uint8_t* mid,
                    std::uint32_t* white);
void half_rows_avx2(const std::uint8_t* src, int out, const HalfTaps& taps, std::uint8_t* mid,
                    std::uint32_t* white);

/// The vertical pass of output rows 1 .. out - 2 from half_rows' results.
void half_columns_sse2(const std::uint8_t* mid, const std::uint32_t* white, int out,
                       std::uint8_t* dst);
void half_columns_avx2(const std::uint8_t* mid, const std::uint32_t* white, int out,
                       std::uint8_t* dst);

}  // namespace rave::engine::internal
