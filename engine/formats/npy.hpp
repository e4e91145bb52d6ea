#pragma once
// NumPy .npy arrays (format versions 1.0-3.0), the members of an npz. The encoder writes the
// header exactly as numpy 1.24's format.write_array does (version 1.0, dict keys sorted, Python
// reprs, space padding to a multiple of 64 bytes including the 21-digit growth allowance); the
// parser accepts v1/v2/v3 headers and keeps the raw little-endian C-order payload.
//
//   std::string header = npy_header("|u1", {16, 160, 160});   // then the 409600 data bytes
//   NpyArray a = parse_npy(bytes, "RAVEN_0_train.npz", "image.npy");
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rave::engine {

/// One parsed array: dtype descriptor, shape and the raw payload.
struct NpyArray {
  std::string descr;               ///< e.g. "|u1", "<i8", "<U13", "|S13"
  std::vector<std::size_t> shape;  ///< () is a scalar
  std::string data;                ///< C-order payload, element_count() * item_size() bytes
  /// Bytes per element of `descr` (0 for descriptors rave does not know).
  std::size_t item_size() const;
  /// Product of the shape (1 for a scalar).
  std::size_t element_count() const;
};

/// The .npy v1.0 header (magic, version, length, dict, padding, newline) numpy 1.24 writes for a
/// C-order array of dtype `descr` and `shape`.
std::string npy_header(std::string_view descr, std::span<const std::size_t> shape);
/// Parses one .npy member; throws InputError(file, member + byte offset, ...) when malformed,
/// Fortran-ordered, or when the payload size does not match the header.
NpyArray parse_npy(std::string_view bytes, const std::string& file, const std::string& member);

}  // namespace rave::engine
