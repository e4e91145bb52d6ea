// The AVX2 passes of the 2:1 resize (engine/model/internal/resize_half_kernels.hpp), compiled for
// AVX2 function by function and run only where the CPU has it (half_kernel_available). A block of
// 16 outputs is one 256-bit chain: the source bytes 2x - 1, 2x and 2x + 1, 2x + 2 are the pairs of
// two loads one byte either side, and vpmaddubsw weighs each pair (1, 3) and (3, 1) at once.
#include <cstddef>

#include "engine/model/internal/resize_half_kernels.hpp"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define RAVE_AVX2 __attribute__((target("avx2")))
#endif

namespace rave::engine::internal {

#ifdef RAVE_AVX2
namespace {

RAVE_AVX2 __m128i load128(const std::uint8_t* p) {
  return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
}
RAVE_AVX2 __m256i load256(const std::uint8_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

// The sixteen 16-bit lanes of `v` as bytes (each below 256), stored at `out`.
RAVE_AVX2 void store_bytes(std::uint8_t* out, __m256i v) {
  const __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(v, v), 0b11011000);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm256_castsi256_si128(packed));
}

// Source bytes 32b - 1 .. 32b + 30 (left) and 32b + 1 .. 32b + 32 (right) of a row; the byte
// before the row and the byte after it read as white (their taps are the caller's border outputs).
RAVE_AVX2 __m256i left_bytes(const std::uint8_t* p, bool first) {
  if (!first) return load256(p - 1);
  const __m128i low = _mm_or_si128(_mm_slli_si128(load128(p), 1), _mm_cvtsi32_si128(0xFF));
  return _mm256_set_m128i(load128(p + 15), low);
}
RAVE_AVX2 __m256i right_bytes(const std::uint8_t* p, bool last) {
  if (!last) return load256(p + 1);
  const __m128i high = _mm_or_si128(_mm_srli_si128(load128(p + 16), 1),
                                    _mm_set_epi32(static_cast<int>(0xFF000000u), 0, 0, 0));
  return _mm256_set_m128i(high, load128(p + 1));
}

// Outputs 16b .. 16b + 15 of one row: (s[2x-1] + 3 s[2x] + 3 s[2x+1] + s[2x+2] + 4) >> 3.
// Returns whether the window was all white (then so is the block).
RAVE_AVX2 inline bool row_block(const std::uint8_t* row, int b, int blocks, std::uint8_t* out) {
  const std::uint8_t* p = row + 2 * kHalfBlock * b;
  const __m256i l = left_bytes(p, b == 0), r = right_bytes(p, b + 1 == blocks);
  const __m256i ones = _mm256_set1_epi8(-1);
  if (_mm256_testc_si256(_mm256_and_si256(l, r), ones)) {  // every bit of l & r set
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm256_castsi256_si128(ones));
    return true;
  }
  const __m256i sum = _mm256_add_epi16(_mm256_maddubs_epi16(l, _mm256_set1_epi16(0x0301)),
                                       _mm256_maddubs_epi16(r, _mm256_set1_epi16(0x0103)));
  store_bytes(out, _mm256_srli_epi16(_mm256_add_epi16(sum, _mm256_set1_epi16(4)), 3));
  return false;
}

// 16 outputs of the vertical pass from four rows of the horizontal pass, n bytes apart.
RAVE_AVX2 inline void column_block(const std::uint8_t* a, std::size_t n, std::uint8_t* out) {
  const __m256i r0 = _mm256_cvtepu8_epi16(load128(a)), r1 = _mm256_cvtepu8_epi16(load128(a + n));
  const __m256i r2 = _mm256_cvtepu8_epi16(load128(a + 2 * n));
  const __m256i r3 = _mm256_cvtepu8_epi16(load128(a + 3 * n));
  const __m256i c = _mm256_add_epi16(r1, r2);
  const __m256i s =
      _mm256_add_epi16(_mm256_add_epi16(c, _mm256_slli_epi16(c, 1)), _mm256_add_epi16(r0, r3));
  store_bytes(out, _mm256_srli_epi16(_mm256_add_epi16(s, _mm256_set1_epi16(4)), 3));
}

// half_rows_avx2 with `kBlocks` blocks a row (0: out / 16 at run time). A constant count (80
// outputs: 5) unrolls the row, and the first and last block's special loads resolve at compile
// time.
template <int kBlocks>
RAVE_AVX2 void rows(const std::uint8_t* src, int out, const HalfTaps& taps, std::uint8_t* mid,
                    std::uint32_t* white) {
  const int blocks = kBlocks != 0 ? kBlocks : out / kHalfBlock, in = 2 * out;
  for (int y = 0; y < in; ++y, src += in, mid += out) {
    std::uint32_t bits = 0;
    for (int b = 0; b < blocks; ++b)
      bits |= static_cast<std::uint32_t>(row_block(src, b, blocks, mid + b * kHalfBlock)) << b;
    white[y] = bits;
    half_row_edges(src, out, bits, taps, mid);
  }
}

// half_columns_avx2 with `kBlocks` blocks a row, as rows().
template <int kBlocks>
RAVE_AVX2 void columns(const std::uint8_t* mid, const std::uint32_t* white, int out,
                       std::uint8_t* dst) {
  const int blocks = kBlocks != 0 ? kBlocks : out / kHalfBlock;
  const auto n = static_cast<std::size_t>(out);
  for (int y = 1; y + 1 < out; ++y) {
    const std::uint32_t* w = white + 2 * y - 1;
    const std::uint32_t bits = w[0] & w[1] & w[2] & w[3];
    const std::uint8_t* rows = mid + static_cast<std::size_t>(2 * y - 1) * n;
    std::uint8_t* row_out = dst + static_cast<std::size_t>(y) * n;
    for (int b = 0; b < blocks; ++b) {
      if (bits >> b & 1u)
        _mm_storeu_si128(reinterpret_cast<__m128i*>(row_out + b * kHalfBlock), _mm_set1_epi8(-1));
      else
        column_block(rows + b * kHalfBlock, n, row_out + b * kHalfBlock);
    }
  }
}

}  // namespace

RAVE_AVX2 void half_rows_avx2(const std::uint8_t* src, int out, const HalfTaps& taps,
                              std::uint8_t* mid, std::uint32_t* white) {
  if (out == 5 * kHalfBlock)
    rows<5>(src, out, taps, mid, white);  // 160 -> 80
  else
    rows<0>(src, out, taps, mid, white);
}

RAVE_AVX2 void half_columns_avx2(const std::uint8_t* mid, const std::uint32_t* white, int out,
                                 std::uint8_t* dst) {
  if (out == 5 * kHalfBlock)
    columns<5>(mid, white, out, dst);
  else
    columns<0>(mid, white, out, dst);
}

#else
void half_rows_avx2(const std::uint8_t*, int, const HalfTaps&, std::uint8_t*, std::uint32_t*) {}
void half_columns_avx2(const std::uint8_t*, const std::uint32_t*, int, std::uint8_t*) {}
#endif

}  // namespace rave::engine::internal
