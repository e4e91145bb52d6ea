#pragma once
// CRC-32 (ZIP / zlib polynomial) at memory speed. On x86-64 CPUs with PCLMULQDQ and SSE4.1 the
// bulk is folded 64 bytes at a time with carry-less multiplication (Gopal et al., "Fast CRC
// Computation for Generic Polynomials Using PCLMULQDQ Instruction", Intel 2009); the remainder
// and other CPUs go through zlib's crc32_z. Same results as zlib for every input.
//
//   std::uint32_t crc = crc32_update(0, data, size);          // == crc32_z(0, data, size)
//   crc = crc32_update(crc, more, more_size);                 // continues a running CRC
#include <cstddef>
#include <cstdint>

namespace rave::engine::internal {

/// zlib-compatible running CRC-32: crc32_update(crc32_update(0, a), b) == CRC of a then b.
std::uint32_t crc32_update(std::uint32_t crc, const void* data, std::size_t size);

}  // namespace rave::engine::internal
