#pragma once
// Byte tests on eight bytes at once (SIMD within a register), for scanners that skip plain text a
// word at a time: each returns the word with the high bit set in the bytes that match. As a whole
// the result is exact (non-zero exactly when some byte matches); a borrow can also mark bytes above
// a true match, so the marks locate nothing.
//
//   const std::uint64_t w = load_word(p);
//   if (bytes_below(w, 0x20) | bytes_equal(w, '&')) { ... look closer ... }
#include <cstdint>
#include <cstring>

namespace rave {

inline constexpr std::uint64_t kEveryByte = 0x0101010101010101ULL;
inline constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;

/// The eight bytes at `p` (any alignment).
inline std::uint64_t load_word(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

/// Bytes below `n` (n <= 128).
constexpr std::uint64_t bytes_below(std::uint64_t w, unsigned char n) {
  return (w - n * kEveryByte) & ~w & kHighBits;
}

/// Bytes equal to `byte`.
constexpr std::uint64_t bytes_equal(std::uint64_t w, unsigned char byte) {
  return bytes_below(w ^ (byte * kEveryByte), 1);
}

/// Bytes of 0x80 and above (outside ASCII).
constexpr std::uint64_t bytes_non_ascii(std::uint64_t w) { return w & kHighBits; }

}  // namespace rave
