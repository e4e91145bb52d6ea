// PNG files of gray pictures, read back by an independent decoder made of zlib's inflate and
// crc32: the chunks, their CRCs, and every pixel, for pictures of runs (line art, every run length
// around deflate's longest match), of noise (every literal code) and of odd sizes.
#include "engine/formats/png.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "engine/formats/internal/run_deflate.hpp"

namespace rave::engine {
namespace {

std::uint32_t u32(const std::string& s, std::size_t at) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(s[at])) << 24 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 1])) << 16 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 2])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 3]));
}

std::vector<std::uint8_t> inflate_all(const std::string& stream, std::size_t size) {
  std::vector<std::uint8_t> out(size + 1);
  uLongf n = static_cast<uLongf>(out.size());
  const int rc = uncompress(out.data(), &n, reinterpret_cast<const Bytef*>(stream.data()),
                            static_cast<uLong>(stream.size()));
  EXPECT_EQ(rc, Z_OK);
  out.resize(n);
  return out;
}

// The pixels of a gray PNG with filters None and Up, checking every chunk's CRC on the way.
std::vector<std::uint8_t> decode(const std::string& png, int width, int height) {
  EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  std::string idat, types;
  for (std::size_t at = 8; at + 12 <= png.size();) {
    const std::uint32_t length = u32(png, at);
    const std::string type = png.substr(at + 4, 4);
    const auto* body = reinterpret_cast<const Bytef*>(png.data() + at + 4);
    EXPECT_EQ(crc32(0, body, length + 4), u32(png, at + 8 + length)) << type;
    if (type == "IHDR") {
      EXPECT_EQ(u32(png, at + 8), static_cast<std::uint32_t>(width));
      EXPECT_EQ(u32(png, at + 12), static_cast<std::uint32_t>(height));
    }
    if (type == "IDAT") idat += png.substr(at + 8, length);
    types += type;
    at += 12 + length;
  }
  EXPECT_EQ(types, "IHDRIDATIEND");
  const std::size_t stride = static_cast<std::size_t>(width) + 1;
  const auto rows = inflate_all(idat, stride * static_cast<std::size_t>(height));
  EXPECT_EQ(rows.size(), stride * static_cast<std::size_t>(height));
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(width * height));
  for (std::size_t y = 0; y < static_cast<std::size_t>(height) && rows.size() >= stride * (y + 1);
       ++y)
    for (std::size_t x = 0; x < static_cast<std::size_t>(width); ++x) {
      const std::uint8_t above = y == 0 ? 0 : pixels[(y - 1) * width + x];
      EXPECT_TRUE(rows[y * stride] == 0 || (rows[y * stride] == 2 && y > 0));
      pixels[y * width + x] =
          static_cast<std::uint8_t>(rows[y * stride + 1 + x] + (rows[y * stride] == 2 ? above : 0));
    }
  return pixels;
}

void expect_round_trip(const std::vector<std::uint8_t>& pixels, int width, int height) {
  EXPECT_EQ(decode(encode_gray_png(pixels, width, height), width, height), pixels)
      << width << " x " << height;
}

TEST(Png, LineArtRoundTrips) {
  const int w = 300, h = 200;
  std::vector<std::uint8_t> p(static_cast<std::size_t>(w * h), 255);
  for (int y = 40; y < 160; ++y)
    for (int x = 50 + y / 3; x < 250 - y / 4; ++x) p[static_cast<std::size_t>(y * w + x)] = 140;
  for (int x = 0; x < w; ++x) p[static_cast<std::size_t>(100 * w + x)] = 0;
  expect_round_trip(p, w, h);
  const std::string png = encode_gray_png(p, w, h);
  EXPECT_LT(png.size(), p.size() / 20) << "runs are not matched";
}

TEST(Png, NoiseAndOddSizesRoundTrip) {
  std::mt19937 rng(7);
  for (const auto& [w, h] : {std::pair{1, 1}, {1, 9}, {7, 3}, {161, 33}, {700, 5}}) {
    std::vector<std::uint8_t> p(static_cast<std::size_t>(w * h));
    for (auto& v : p) v = static_cast<std::uint8_t>(rng());
    expect_round_trip(p, w, h);
  }
}

TEST(RunDeflate, EveryRunLengthAroundTheLongestMatch) {
  std::vector<std::uint8_t> data;
  for (int run = 1; run <= 1040; run += (run < 10 || (run > 250 && run < 270) ? 1 : 37))
    data.insert(data.end(), static_cast<std::size_t>(run), static_cast<std::uint8_t>(run * 7));
  const auto back = inflate_all(internal::run_deflate_zlib(data), data.size());
  EXPECT_EQ(back, data);
  EXPECT_EQ(inflate_all(internal::run_deflate_zlib({}), 0), std::vector<std::uint8_t>{});
}

}  // namespace
}  // namespace rave::engine
