// crc32_update (engine/internal/crc32.hpp). The folding constants are the bit-reflected
// x^(4*128+32), x^(4*128-32), x^(128+32), x^(128-32), x^64 mod P and the Barrett pair (mu, P) of
// the CRC-32 polynomial P = 0x104C11DB7, as tabulated at the end of Gopal et al.
#include "engine/internal/crc32.hpp"

#include <zlib.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define RAVE_CRC32_CLMUL 1
#endif

namespace rave::engine::internal {
namespace {

#ifdef RAVE_CRC32_CLMUL

__attribute__((target("pclmul,sse4.1"))) __m128i fold(__m128i x, __m128i k, __m128i next) {
  const __m128i lo = _mm_clmulepi64_si128(x, k, 0x00), hi = _mm_clmulepi64_si128(x, k, 0x11);
  return _mm_xor_si128(_mm_xor_si128(hi, lo), next);
}

// The reflected CRC state (zlib's ~crc) of `size` bytes, size >= 64 and a multiple of 16.
__attribute__((target("pclmul,sse4.1"))) std::uint32_t fold_blocks(const unsigned char* p, std::size_t size,
                                                                   std::uint32_t state) {
  alignas(16) static const std::uint64_t k1k2[] = {0x0154442bd4, 0x01c6e41596};
  alignas(16) static const std::uint64_t k3k4[] = {0x01751997d0, 0x00ccaa009e};
  alignas(16) static const std::uint64_t k5k0[] = {0x0163cd6124, 0x0000000000};
  alignas(16) static const std::uint64_t poly[] = {0x01db710641, 0x01f7011641};
  auto load = [](const unsigned char* q) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(q)); };
  __m128i x1 = _mm_xor_si128(load(p), _mm_cvtsi32_si128(static_cast<int>(state)));
  __m128i x2 = load(p + 16), x3 = load(p + 32), x4 = load(p + 48);
  p += 64, size -= 64;
  __m128i k = _mm_load_si128(reinterpret_cast<const __m128i*>(k1k2));
  for (; size >= 64; p += 64, size -= 64) {
    x1 = fold(x1, k, load(p));
    x2 = fold(x2, k, load(p + 16));
    x3 = fold(x3, k, load(p + 32));
    x4 = fold(x4, k, load(p + 48));
  }
  k = _mm_load_si128(reinterpret_cast<const __m128i*>(k3k4));
  x1 = fold(fold(fold(x1, k, x2), k, x3), k, x4);
  for (; size >= 16; p += 16, size -= 16) x1 = fold(x1, k, load(p));
  // 128 -> 64 bits, then 64 -> 32 by Barrett reduction.
  const __m128i mask32 = _mm_setr_epi32(~0, 0, ~0, 0);
  x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), _mm_clmulepi64_si128(x1, k, 0x10));
  k = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(k5k0));
  x1 = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k, 0x00), _mm_srli_si128(x1, 4));
  k = _mm_load_si128(reinterpret_cast<const __m128i*>(poly));
  __m128i x2r = _mm_clmulepi64_si128(_mm_and_si128(x1, mask32), k, 0x10);
  x2r = _mm_clmulepi64_si128(_mm_and_si128(x2r, mask32), k, 0x00);
  return static_cast<std::uint32_t>(_mm_extract_epi32(_mm_xor_si128(x1, x2r), 1));
}

bool has_clmul() {
  static const bool yes = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
  return yes;
}

#endif

}  // namespace

std::uint32_t crc32_update(std::uint32_t crc, const void* data, std::size_t size) {
  const auto* p = static_cast<const unsigned char*>(data);
#ifdef RAVE_CRC32_CLMUL
  if (size >= 64 && has_clmul()) {
    const std::size_t bulk = size & ~static_cast<std::size_t>(15);
    crc = ~fold_blocks(p, bulk, ~crc);
    p += bulk, size -= bulk;
  }
#endif
  return static_cast<std::uint32_t>(crc32_z(crc, p, size));
}

}  // namespace rave::engine::internal
