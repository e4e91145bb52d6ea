// The 2:1 resize (engine/model/internal/resize_half.hpp): the kernel of the CPU, then the borders
// with Pillow's 32-bit taps.
#include "engine/model/internal/resize_half.hpp"

#include <cstddef>
#include <vector>

#include "common/error.hpp"
#include "engine/model/internal/resize_half_kernels.hpp"

namespace rave::engine::internal {
namespace {

// Per-thread scratch: the horizontal pass's rows (2 out of them, out bytes each) and their white
// blocks. Callers copy the pointers out once: re-reading a thread_local in a shared object is a
// call.
struct Scratch {
  std::vector<std::uint8_t> mid;
  std::vector<std::uint32_t> white;
};

Scratch& scratch(int out) {
  thread_local Scratch s;
  const auto n = static_cast<std::size_t>(out);
  if (s.mid.size() < 2 * n * n) s.mid.resize(2 * n * n);
  if (s.white.size() < 2 * n) s.white.resize(2 * n);
  return s;
}

// Output rows 0 and out - 1: Pillow's taps over mid rows 0..2 and 2 out - 3 .. 2 out - 1, white
// where those three rows are white.
void edge_rows(const std::uint8_t* mid, const std::uint32_t* white, int out, const HalfTaps& taps,
               std::uint8_t* dst) {
  const int in = 2 * out;
  const auto n = static_cast<std::size_t>(out);
  const std::uint32_t top = white[0] & white[1] & white[2];
  const std::uint32_t bottom = white[in - 3] & white[in - 2] & white[in - 1];
  std::uint8_t* last_row = dst + (n - 1) * n;
  for (std::size_t x0 = 0; x0 < n; x0 += kHalfBlock) {
    const std::uint32_t bit = 1u << (x0 / kHalfBlock);
    for (std::size_t x = x0; x < x0 + kHalfBlock; ++x) {
      dst[x] = top & bit ? 255 : half_edge(mid + x, out, taps.first.data() + 1);
      last_row[x] = bottom & bit ? 255 : half_edge(mid + (in - 3) * n + x, out, taps.last.data());
    }
  }
}

}  // namespace

bool half_kernel_available(HalfKernel kernel) {
#if defined(__SSE2__)
  if (kernel == HalfKernel::kSse2) return true;
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
  static const bool avx2 = __builtin_cpu_supports("avx2") != 0;
  return avx2;
#endif
#endif
  (void)kernel;
  return false;
}

bool half_kernel_fits(int out) {
  return half_kernel_available(HalfKernel::kSse2) && out >= 2 * kHalfBlock &&
         out % kHalfBlock == 0 && out <= 32 * kHalfBlock;  // a row's blocks are bits of 32
}

void resize_half(const std::uint8_t* src, std::uint8_t* dst, int out, const HalfTaps& taps,
                 HalfKernel kernel) {
  RAVE_CHECK(half_kernel_fits(out) && half_kernel_available(kernel),
             "2:1 kernel not available for this size or CPU");
  Scratch& s = scratch(out);
  std::uint8_t* const mid = s.mid.data();
  std::uint32_t* const white = s.white.data();
  const bool avx2 = kernel == HalfKernel::kAvx2;
  (avx2 ? half_rows_avx2 : half_rows_sse2)(src, out, taps, mid, white);
  (avx2 ? half_columns_avx2 : half_columns_sse2)(mid, white, out, dst);
  edge_rows(mid, white, out, taps, dst);
}

void resize_half(const std::uint8_t* src, std::uint8_t* dst, int out, const HalfTaps& taps) {
  static const HalfKernel best =
      half_kernel_available(HalfKernel::kAvx2) ? HalfKernel::kAvx2 : HalfKernel::kSse2;
  resize_half(src, dst, out, taps, best);
}

}  // namespace rave::engine::internal
