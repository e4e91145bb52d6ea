#pragma once
// CRC-32 (ZIP / zlib polynomial) for the zip and PNG writers and the zip reader: libdeflate's
// implementation (carry-less multiplication where the CPU has it), zlib-compatible.
//
//   std::uint32_t crc = crc32_update(0, data, size);          // == zlib's crc32_z(0, data, size)
//   crc = crc32_update(crc, more, more_size);                 // continues a running CRC
#include <cstddef>
#include <cstdint>

namespace rave::engine::internal {

/// zlib-compatible running CRC-32: crc32_update(crc32_update(0, a), b) == CRC of a then b.
std::uint32_t crc32_update(std::uint32_t crc, const void* data, std::size_t size);

}  // namespace rave::engine::internal
