#pragma once
// A zlib stream (RFC 1950) of one fixed-Huffman deflate block (RFC 1951 3.2.6) whose only matches
// are runs of one byte (distance 1): what PNG line art filtered with Up is made of (long runs of
// 0). It does what zlib's Z_RLE strategy does, without its Huffman trees, about ten times faster
// (bench/README.md, "Image benchmarks"); any inflater reads it.
//
//   std::string idat = run_deflate_zlib(filtered_rows);   // PNG's IDAT data
#include <cstdint>
#include <span>
#include <string>

namespace rave::engine::internal {

/// The zlib stream of `data`: header, one final fixed-Huffman block, Adler-32.
std::string run_deflate_zlib(std::span<const std::uint8_t> data);

}  // namespace rave::engine::internal
