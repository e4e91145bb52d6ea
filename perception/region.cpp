#include "perception/region.hpp"

#include <algorithm>
#include <cstring>

namespace rave::perception {
namespace {

constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;

// One step of the hash: the word mixed into the running state (a multiply per 8 bytes, and the
// rotation lets every earlier byte reach every later bit).
inline std::uint64_t mix(std::uint64_t h, std::uint64_t word) {
  h ^= word;
  h *= kMul;
  return (h << 29) | (h >> 35);
}

// The final avalanche of MurmurHash3 (fmix64).
inline std::uint64_t finish(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDull;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ull;
  return h ^ (h >> 33);
}

}  // namespace

Region Region::from_mask(const engine::Image& mask) {
  Region r;
  for (int y = 0; y < engine::kPanelSize; ++y) {
    const std::uint8_t* row = mask.data() + y * engine::kPanelSize;
    for (int x = 0; x < engine::kPanelSize;) {
      if (row[x] == 0) {
        ++x;
        continue;
      }
      int end = x;
      while (end < engine::kPanelSize && row[end] != 0) ++end;
      r.runs_.push_back(Run{static_cast<std::int16_t>(y), static_cast<std::int16_t>(x),
                            static_cast<std::int16_t>(end - x)});
      r.add_words(y * engine::kPanelSize + x, end - x);
      r.pixels_ += end - x;
      x = end;
    }
  }
  return r;
}

Region Region::from_runs(const std::vector<Run>& runs) {
  Region r;
  for (const Run& run : runs) {
    r.runs_.push_back(run);
    r.add_words(run.y * engine::kPanelSize + run.x, run.length);
    r.pixels_ += run.length;
  }
  return r;
}

// Words covering [offset, offset + length): whole words, the last one overlapping; a run shorter
// than a word is one masked word, loaded from where it stays inside the panel.
void Region::add_words(int offset, int length) {
  if (length >= 8) {
    for (int i = 0; i + 8 <= length; i += 8) words_.push_back(Word{offset + i});
    if (length % 8 != 0) words_.push_back(Word{offset + length - 8});
    return;
  }
  const int start = std::min(offset, engine::kPanelPixels - 8);
  const int shift = offset - start;  // the run's bytes sit at [shift, shift + length) of the word
  const std::uint64_t ones = (std::uint64_t{1} << (8 * length)) - 1;
  words_.push_back(Word{start, ones << (8 * shift)});
}

// Four independent lanes, one word each per step (the multiplies overlap instead of waiting on one
// another), combined in a fixed order at the end.
std::uint64_t hash_pixels(const std::uint8_t* image, const Region& region) {
  std::uint64_t h[4] = {0x243F6A8885A308D3ull, 0x13198A2E03707344ull, 0xA4093822299F31D0ull,
                        0x082EFA98EC4E6C89ull};
  const auto& words = region.words();
  const std::size_t n = words.size();
  auto load = [&](std::size_t k) {
    std::uint64_t w;
    std::memcpy(&w, image + words[k].offset, 8);
    return w & words[k].mask;
  };
  std::size_t k = 0;
  for (; k + 4 <= n; k += 4)
    for (int lane = 0; lane < 4; ++lane)
      h[lane] = mix(h[lane], load(k + static_cast<std::size_t>(lane)));
  for (; k < n; ++k) h[0] = mix(h[0], load(k));
  return finish(finish(h[0] ^ h[1]) ^ finish(h[2] ^ h[3]) ^
                static_cast<std::uint64_t>(region.pixels()));
}

bool all_white(const std::uint8_t* image, const Region& region) {
  bool white = true;
  region.for_each_run([&](int offset, int length) {
    const std::uint8_t* p = image + offset;
    std::uint8_t all = 0xFF;
    for (int i = 0; i < length; ++i) all &= p[i];
    white = white && all == 0xFF;
  });
  return white;
}

bool same_pixels(const std::uint8_t* a, const std::uint8_t* b, const Region& region) {
  bool same = true;
  region.for_each_run([&](int offset, int length) {
    same = same && std::memcmp(a + offset, b + offset, static_cast<std::size_t>(length)) == 0;
  });
  return same;
}

void gather(const std::uint8_t* image, const Region& region, std::uint8_t* out) {
  region.for_each_run([&](int offset, int length) {
    std::memcpy(out, image + offset, static_cast<std::size_t>(length));
    out += length;
  });
}

}  // namespace rave::perception
