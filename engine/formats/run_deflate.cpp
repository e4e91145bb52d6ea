// run_deflate_zlib (engine/formats/internal/run_deflate.hpp): literals and distance-1 matches in
// deflate's fixed Huffman codes (RFC 1951 3.2.5-3.2.6), in one final block of a zlib stream.
#include "engine/formats/internal/run_deflate.hpp"

#include <libdeflate.h>

#include <array>
#include <bit>
#include <cstring>
#include <vector>

namespace rave::engine::internal {
namespace {

static_assert(std::endian::native == std::endian::little, "run_length reads words little-endian");

struct Code {
  std::uint32_t bits = 0;  // LSB first, as deflate writes them
  int length = 0;
};

constexpr std::uint32_t reversed(std::uint32_t code, int length) {
  std::uint32_t out = 0;
  for (int i = 0; i < length; ++i) out |= ((code >> i) & 1U) << (length - 1 - i);
  return out;
}

// The fixed literal/length code of symbol 0..287 (RFC 1951 3.2.6).
constexpr Code fixed_code(int symbol) {
  if (symbol < 144) return {reversed(0x30U + static_cast<unsigned>(symbol), 8), 8};
  if (symbol < 256) return {reversed(0x190U + static_cast<unsigned>(symbol - 144), 9), 9};
  if (symbol < 280) return {reversed(static_cast<unsigned>(symbol - 256), 7), 7};
  return {reversed(0xC0U + static_cast<unsigned>(symbol - 280), 8), 8};
}

constexpr std::array<Code, 256> literal_codes() {
  std::array<Code, 256> out{};
  for (int s = 0; s < 256; ++s) out[static_cast<std::size_t>(s)] = fixed_code(s);
  return out;
}

// A whole match of length 3..258 at distance 1: the length symbol, its extra bits, and distance
// code 0 (five 0 bits, no extra bits).
constexpr std::array<Code, 259> match_codes() {
  constexpr std::array<int, 29> base = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                        15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                        67, 83, 99, 115, 131, 163, 195, 227, 258};
  constexpr std::array<int, 29> extra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
  std::array<Code, 259> out{};
  for (int length = 3; length <= 258; ++length) {
    std::size_t k = 0;
    while (k + 1 < base.size() && base[k + 1] <= length) ++k;
    const Code symbol = fixed_code(257 + static_cast<int>(k));
    out[static_cast<std::size_t>(length)] = {
        symbol.bits | (static_cast<std::uint32_t>(length - base[k]) << symbol.length),
        symbol.length + extra[k] + 5};
  }
  return out;
}

constexpr std::array<Code, 256> kLiterals = literal_codes();
constexpr std::array<Code, 259> kMatches = match_codes();
constexpr int kMaxMatch = 258;

class BitWriter {
 public:
  explicit BitWriter(std::vector<std::uint8_t>& out) : out_(out) {}
  void put(Code c) {
    bits_ |= static_cast<std::uint64_t>(c.bits) << count_;
    count_ += c.length;
    if (count_ >= 32) {
      for (int i = 0; i < 4; ++i) out_.push_back(static_cast<std::uint8_t>(bits_ >> (8 * i)));
      bits_ >>= 32;
      count_ -= 32;
    }
  }
  void flush() {
    for (; count_ > 0; count_ -= 8, bits_ >>= 8) out_.push_back(static_cast<std::uint8_t>(bits_));
    count_ = 0;
  }

 private:
  std::vector<std::uint8_t>& out_;
  std::uint64_t bits_ = 0;
  int count_ = 0;
};

// How many bytes from `at` on equal `b`, eight at a time.
std::size_t run_length(std::span<const std::uint8_t> data, std::size_t at, std::uint8_t b) {
  const std::uint64_t pattern = 0x0101010101010101ULL * b;
  std::size_t j = at;
  for (; j + 8 <= data.size(); j += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, data.data() + j, 8);
    if (const std::uint64_t diff = word ^ pattern; diff != 0)
      return j - at + static_cast<std::size_t>(std::countr_zero(diff) / 8);
  }
  while (j < data.size() && data[j] == b) ++j;
  return j - at;
}

}  // namespace

std::string run_deflate_zlib(std::span<const std::uint8_t> data) {
  thread_local std::vector<std::uint8_t> out;  // reused: no fresh pages per picture
  out.clear();
  out.reserve(data.size() / 8 * 9 + 64);
  out.push_back(0x78);  // deflate, 32 KB window
  out.push_back(0x01);  // fastest-level hint; (0x78 << 8 | 0x01) % 31 == 0
  BitWriter w(out);
  w.put({0b011, 3});  // BFINAL 1, BTYPE 01 (fixed Huffman codes)
  for (std::size_t i = 0; i < data.size();) {
    const std::uint8_t b = data[i++];
    w.put(kLiterals[b]);
    std::size_t run = run_length(data, i, b);
    i += run;
    for (; run >= 3; run -= std::min<std::size_t>(run, kMaxMatch))
      w.put(kMatches[std::min<std::size_t>(run, kMaxMatch)]);
    for (; run > 0; --run) w.put(kLiterals[b]);
  }
  w.put({0, 7});  // end of block, symbol 256
  w.flush();
  const std::uint32_t adler = libdeflate_adler32(1, data.data(), data.size());
  for (int shift = 24; shift >= 0; shift -= 8)
    out.push_back(static_cast<std::uint8_t>(adler >> shift));
  return std::string(out.begin(), out.end());
}

}  // namespace rave::engine::internal
