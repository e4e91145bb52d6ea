// crc32_update (engine/formats/internal/crc32.hpp) through libdeflate.
#include "engine/formats/internal/crc32.hpp"

#include <libdeflate.h>

namespace rave::engine::internal {

std::uint32_t crc32_update(std::uint32_t crc, const void* data, std::size_t size) {
  return libdeflate_crc32(crc, data, size);
}

}  // namespace rave::engine::internal
