#pragma once
// The 5x7 font of apps/chart.cpp.
#include <array>
#include <cstdint>

namespace rave::apps {

/// Glyph size in font pixels.
inline constexpr int kGlyphWidth = 5;
inline constexpr int kGlyphHeight = 7;

/// The 7 rows of a character (bit 4 = leftmost pixel); lower case maps to upper case, unknown
/// characters to '?'.
const std::array<std::uint8_t, 7>& glyph_rows(char c);

}  // namespace rave::apps
