// encode_gray_png (engine/formats/png.hpp): signature, IHDR, one IDAT (zlib stream of the filtered
// rows, runs deflated by internal/run_deflate.hpp), IEND; every chunk closed by its CRC-32 (PNG
// specification, sections 5 and 9).
#include "engine/formats/png.hpp"

#include <array>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "engine/formats/internal/crc32.hpp"
#include "engine/formats/internal/run_deflate.hpp"

namespace rave::engine {
namespace {

constexpr std::string_view kSignature{"\x89PNG\r\n\x1a\n", 8};
constexpr std::uint8_t kFilterNone = 0, kFilterUp = 2;

void put_u32(std::string& out, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((v >> shift) & 0xFF);
}

void put_chunk(std::string& out, std::string_view type, std::string_view data) {
  put_u32(out, static_cast<std::uint32_t>(data.size()));
  const std::size_t start = out.size();
  out += type;
  out += data;
  put_u32(out, internal::crc32_update(0, out.data() + start, out.size() - start));
}

// Row y with its filter byte into `out`: Up (difference to the row above) when that sums to fewer
// absolute residuals than None, the usual heuristic for line art on a white ground.
void filter_row(std::uint8_t* out, const std::uint8_t* row, const std::uint8_t* above, int width) {
  long none_cost = 0, up_cost = 0;
  for (int x = 0; above != nullptr && x < width; ++x) {
    none_cost += std::abs(static_cast<std::int8_t>(row[x]));
    up_cost += std::abs(static_cast<std::int8_t>(row[x] - above[x]));
  }
  const bool up = above != nullptr && up_cost < none_cost;
  out[0] = up ? kFilterUp : kFilterNone;
  if (!up) {
    std::memcpy(out + 1, row, static_cast<std::size_t>(width));
    return;
  }
  for (int x = 0; x < width; ++x) out[x + 1] = static_cast<std::uint8_t>(row[x] - above[x]);
}

std::string deflate_rows(std::span<const std::uint8_t> pixels, int width, int height) {
  const std::size_t stride = static_cast<std::size_t>(width) + 1;
  thread_local std::vector<std::uint8_t> filtered;  // reused: a sheet is 660 KB
  filtered.resize(static_cast<std::size_t>(height) * stride);
  for (int y = 0; y < height; ++y) {
    const std::uint8_t* row =
        pixels.data() + static_cast<std::size_t>(y) * static_cast<std::size_t>(width);
    filter_row(filtered.data() + static_cast<std::size_t>(y) * stride, row,
               y == 0 ? nullptr : row - width, width);
  }
  return internal::run_deflate_zlib(filtered);
}

}  // namespace

std::string encode_gray_png(std::span<const std::uint8_t> pixels, int width, int height) {
  RAVE_CHECK(width > 0 && height > 0, "PNG: empty image");
  RAVE_CHECK(pixels.size() == static_cast<std::size_t>(width) * static_cast<std::size_t>(height),
             "PNG: pixel count does not match the size");
  std::string header;
  put_u32(header, static_cast<std::uint32_t>(width));
  put_u32(header, static_cast<std::uint32_t>(height));
  header += std::string_view("\x08\x00\x00\x00\x00",
                             5);  // bit depth 8, gray, deflate, filter 0, no interlace
  std::string out(kSignature);
  put_chunk(out, "IHDR", header);
  put_chunk(out, "IDAT", deflate_rows(pixels, width, height));
  put_chunk(out, "IEND", {});
  return out;
}

std::string encode_gray_png(const GrayImage& image) {
  return encode_gray_png(image.pixels, image.width, image.height);
}

}  // namespace rave::engine
