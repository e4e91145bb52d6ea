#pragma once
// PNG files of gray pictures (contact sheets, charts): 8-bit grayscale, one IDAT chunk, each row
// filtered with the cheaper of None and Up, its runs deflated
// (engine/formats/internal/run_deflate.hpp). Any PNG reader opens them; rave never reads PNG.
//
//   std::string png = encode_gray_png(problem_sheet(images, target));   // engine/render/sheet.hpp
//   write_file_atomic("sheet.png", png);
#include <cstdint>
#include <span>
#include <string>

#include "engine/model/image.hpp"

namespace rave::engine {

/// PNG bytes of a width x height 8-bit gray image (row-major).
std::string encode_gray_png(std::span<const std::uint8_t> pixels, int width, int height);
/// PNG bytes of a picture.
std::string encode_gray_png(const GrayImage& image);

}  // namespace rave::engine
