#pragma once
// Attribute value tables of the A-SIG (docs/format.md#value-tables) and the level ranges that
// constrain them. Every attribute is stored as a 0-based *level*; these tables turn levels into
// drawing values.
//
//   double scale = kSizeValues[size_level];            // 0.4 .. 0.9
//   int gray = kColorValues[color_level];              // 255 (white) .. 0 (black)
#include <array>
#include <optional>
#include <string_view>

namespace rave::engine {

/// The attributes of a Layout (Number, Position, Uniformity) and of an Entity (Type, Size, Color,
/// Angle). Order is the order rule groups use (Number/Position first).
enum class Attr { kNumber, kPosition, kType, kSize, kColor, kAngle, kUniformity };

/// Spelling as in docs/format.md and the XML ("Number", "Position", "Type", ...).
std::string_view attr_name(Attr attr);
std::optional<Attr> parse_attr(std::string_view name);

/// Number: level 0..8 means 1..9 entities.
inline constexpr int kMaxNumberLevel = 8;
/// Type: 0 none, 1 triangle, 2 square, 3 pentagon, 4 hexagon, 5 circle.
inline constexpr std::array<std::string_view, 6> kTypeNames{"none",     "triangle", "square",
                                                            "pentagon", "hexagon",  "circle"};
/// Size: scale factor of the circumradius.
inline constexpr std::array<double, 6> kSizeValues{0.4, 0.5, 0.6, 0.7, 0.8, 0.9};
/// Color: gray value; level 0 is white (unfilled), 9 is black.
inline constexpr std::array<int, 10> kColorValues{255, 224, 196, 168, 140, 112, 84, 56, 28, 0};
/// Angle: self-rotation in degrees; level 3 is 0 degrees.
inline constexpr std::array<int, 8> kAngleValues{-135, -90, -45, 0, 45, 90, 135, 180};
/// Uniformity: levels 0..2 mean non-uniform, 3 means uniform (so P(uniform) = 1/4).
inline constexpr int kUniformLevel = 3;

/// An inclusive range of levels [min, max]; empty when min > max.
struct Range {
  int min = 0;
  int max = -1;
  bool empty() const { return min > max; }
  int size() const { return empty() ? 0 : max - min + 1; }
  bool contains(int level) const { return min <= level && level <= max; }
  friend bool operator==(const Range&, const Range&) = default;
};

/// Default entity ranges before any layout override (docs/format.md#configurations).
inline constexpr Range kDefaultTypeRange{0, 5};
inline constexpr Range kDefaultSizeRange{0, 5};
inline constexpr Range kDefaultColorRange{0, 9};
inline constexpr Range kDefaultAngleRange{0, 7};
inline constexpr Range kUniformityRange{0, 3};

}  // namespace rave::engine
