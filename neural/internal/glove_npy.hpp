#pragma once
// The bytes of neural/data/glove-22x300.npy, compiled in (neural/CMakeLists.txt generates the
// definition from the file at build time), so the default label table needs no file at run time.
#include <cstdint>
#include <span>

namespace rave::neural::internal {

/// The .npy file's bytes.
extern const std::span<const std::uint8_t> kGloveNpy;

}  // namespace rave::neural::internal
