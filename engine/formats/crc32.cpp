// crc32_update (engine/formats/internal/crc32.hpp) and crc32 (engine/formats/zip.hpp) through
// libdeflate.
#include "engine/formats/internal/crc32.hpp"

#include <libdeflate.h>

#include "engine/formats/zip.hpp"

namespace rave::engine {
namespace internal {

std::uint32_t crc32_update(std::uint32_t crc, const void* data, std::size_t size) {
  return libdeflate_crc32(crc, data, size);
}

}  // namespace internal

std::uint32_t crc32(std::string_view bytes) {
  return internal::crc32_update(0, bytes.data(), bytes.size());
}

}  // namespace rave::engine
