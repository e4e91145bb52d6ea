// The SSE2 passes of the 2:1 resize (engine/model/internal/resize_half_kernels.hpp): 16 outputs a
// block as two halves of eight 16-bit lanes. Without SSE2 they are never called
// (half_kernel_fits is false).
#include <cstddef>

#include "engine/model/internal/resize_half_kernels.hpp"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace rave::engine::internal {

#ifdef __SSE2__
namespace {

__m128i load(const std::uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
void store(std::uint8_t* p, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }

// (l + 3 (e + o) + r + 4) >> 3 in eight 16-bit lanes (at most 2044: no overflow).
__m128i taps_1331(__m128i l, __m128i e, __m128i o, __m128i r) {
  const __m128i c = _mm_add_epi16(e, o);
  const __m128i s = _mm_add_epi16(_mm_add_epi16(c, _mm_slli_epi16(c, 1)), _mm_add_epi16(l, r));
  return _mm_srli_epi16(_mm_add_epi16(s, _mm_set1_epi16(4)), 3);
}

bool all_white(__m128i v) {
  return _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(-1))) == 0xFFFF;
}

// Outputs 16b .. 16b + 15 of one row, from source columns 32b - 1 .. 32b + 32 of `row`. Output x
// reads columns 2x - 1 .. 2x + 2: as 16-bit lanes of pairs, column 2x - 1 is the high byte of the
// pair loaded 2 bytes earlier, 2x + 2 the low byte of the pair 2 bytes later. The first and last
// block do not read outside the row (their border output is the caller's). Returns whether the
// window was all white (then so is the block).
bool row_block(const std::uint8_t* row, int b, int blocks, std::uint8_t* out) {
  const std::uint8_t* p = row + 2 * kHalfBlock * b;
  const __m128i p0 = load(p), p1 = load(p + kHalfBlock);
  const bool first = b == 0, last = b + 1 == blocks;
  if (all_white(_mm_and_si128(p0, p1)) && (first || p[-1] == 255) &&
      (last || p[2 * kHalfBlock] == 255)) {
    store(out, _mm_set1_epi8(-1));
    return true;
  }
  const __m128i l0 = first ? _mm_slli_si128(p0, 2) : load(p - 2), l1 = load(p + kHalfBlock - 2);
  const __m128i r0 = load(p + 2), r1 = last ? _mm_srli_si128(p1, 2) : load(p + kHalfBlock + 2);
  const __m128i low = _mm_set1_epi16(0x00FF);
  const __m128i v0 = taps_1331(_mm_srli_epi16(l0, 8), _mm_and_si128(p0, low), _mm_srli_epi16(p0, 8),
                               _mm_and_si128(r0, low));
  const __m128i v1 = taps_1331(_mm_srli_epi16(l1, 8), _mm_and_si128(p1, low), _mm_srli_epi16(p1, 8),
                               _mm_and_si128(r1, low));
  store(out, _mm_packus_epi16(v0, v1));
  return false;
}

// 16 outputs of the vertical pass from four rows of the horizontal pass, n bytes apart.
void column_block(const std::uint8_t* a, std::size_t n, std::uint8_t* out) {
  const __m128i zero = _mm_setzero_si128();
  const __m128i r0 = load(a), r1 = load(a + n), r2 = load(a + 2 * n), r3 = load(a + 3 * n);
  const __m128i lo = taps_1331(_mm_unpacklo_epi8(r0, zero), _mm_unpacklo_epi8(r1, zero),
                               _mm_unpacklo_epi8(r2, zero), _mm_unpacklo_epi8(r3, zero));
  const __m128i hi = taps_1331(_mm_unpackhi_epi8(r0, zero), _mm_unpackhi_epi8(r1, zero),
                               _mm_unpackhi_epi8(r2, zero), _mm_unpackhi_epi8(r3, zero));
  store(out, _mm_packus_epi16(lo, hi));
}

}  // namespace

void half_rows_sse2(const std::uint8_t* src, int out, const HalfTaps& taps, std::uint8_t* mid,
                    std::uint32_t* white) {
  const int blocks = out / kHalfBlock, in = 2 * out;
  for (int y = 0; y < in; ++y, src += in, mid += out) {
    std::uint32_t bits = 0;
    for (int b = 0; b < blocks; ++b)
      bits |= static_cast<std::uint32_t>(row_block(src, b, blocks, mid + b * kHalfBlock)) << b;
    white[y] = bits;
    half_row_edges(src, out, bits, taps, mid);
  }
}

void half_columns_sse2(const std::uint8_t* mid, const std::uint32_t* white, int out,
                       std::uint8_t* dst) {
  const int blocks = out / kHalfBlock;
  const auto n = static_cast<std::size_t>(out);
  for (int y = 1; y + 1 < out; ++y) {
    const std::uint32_t* w = white + 2 * y - 1;
    const std::uint32_t bits = w[0] & w[1] & w[2] & w[3];
    const std::uint8_t* rows = mid + static_cast<std::size_t>(2 * y - 1) * n;
    std::uint8_t* row_out = dst + static_cast<std::size_t>(y) * n;
    for (int b = 0; b < blocks; ++b) {
      if (bits >> b & 1u)
        store(row_out + b * kHalfBlock, _mm_set1_epi8(-1));
      else
        column_block(rows + b * kHalfBlock, n, row_out + b * kHalfBlock);
    }
  }
}

#else
void half_rows_sse2(const std::uint8_t*, int, const HalfTaps&, std::uint8_t*, std::uint32_t*) {}
void half_columns_sse2(const std::uint8_t*, const std::uint32_t*, int, std::uint8_t*) {}
#endif

}  // namespace rave::engine::internal
