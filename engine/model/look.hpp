#pragma once
// What an entity's levels look like in a render style (docs/rendering.md#levels): the drawing
// values rave's own renderer (engine/render/styled.hpp) takes, and perception inverts. With the
// original tables (Variant::values 0) Type 1..5 are the triangle, square, pentagon, hexagon and
// circle, Size the scales 0.4..0.9 and Color 10 fills; with `values` V, Type t < V is the regular
// polygon of t + 2 sides and t = V the circle, Size is spaced evenly in log scale from 0.4 to 0.9
// (equal ratios: Weber's law), and Color level c > 0 is spaced evenly between the style's first
// and last fill (in L* for palette lstar). Color 0 is unfilled. Confounders take the first four
// visual attributes below, one each (docs/variants.md#confounders-in-pictures):
//
//   1. outline width, 0.6 to 1.4 times the style's stroke;
//   2. outline gray, from the style's line gray 60% of the way (in L*) to the background;
//   3. a central dot, radius 0.06 to 0.26 of the shape's inradius;
//   4. an inner outline, the shape scaled by 0.40 to 0.65.
//
// An Out component (O-IC, O-IG) shows only the first two: its centre lies under the In part.
//
//   LevelLooks looks(style, variant);
//   EntityLook l = looks.look(entity, confounders_of_entity, /*outer=*/false);
#include <span>

#include "engine/model/problem.hpp"
#include "engine/model/style.hpp"
#include "engine/model/variant.hpp"

namespace rave::engine {

/// Confounders a picture can show: one visual attribute each.
inline constexpr int kDrawnConfounders = 4;
/// Confounder channels, in the order confounders take them.
enum class Channel { kStrokeWidth, kLineGray, kDot, kRing };
/// A channel's span: its first and last level's value.
struct ChannelSpan {
  double first, last;
};
inline constexpr ChannelSpan kStrokeSpan{0.6, 1.4};  ///< times the style's stroke
inline constexpr double kLineReach = 0.6;            ///< of the L* way from line to background
inline constexpr ChannelSpan kDotSpan{0.06, 0.26};   ///< of the shape's inradius
inline constexpr ChannelSpan kRingSpan{0.40, 0.65};  ///< scale of the shape
/// Width of the inner outline (confounder 4) in pixels: half the style's stroke, at least 1.
double ring_width(const RenderStyle& style);

/// The drawing values of one entity.
struct EntityLook {
  int sides = 3;       ///< polygon sides; 0 a circle
  double scale = 0.5;  ///< circumradius / the slot's unit (min(h, w) * size / 2)
  int fill = -1;       ///< gray, or -1: unfilled (what lies below shows through)
  double stroke = 2;   ///< outline width in pixels
  int line = 0;        ///< outline gray
  double dot = 0;      ///< central dot radius / the shape's inradius; 0: none
  double ring = 0;     ///< inner outline: the shape scaled by this; 0: none
  int mark = 0;        ///< gray of the dot and the inner outline
  double angle = 0;    ///< degrees, counter-clockwise on screen
  friend bool operator==(const EntityLook&, const EntityLook&) = default;
};

/// CIE L* (0..100) of an sRGB gray (0..255), and the gray nearest an L*.
double gray_lstar(int gray);
int lstar_gray(double lstar);

/// The level-to-value tables of a style and a variant.
class LevelLooks {
 public:
  LevelLooks(const RenderStyle& style, const Variant& variant);

  /// Type levels are 1..type_max(), Size 0..size_levels()-1, Color 0..color_levels()-1.
  int type_max() const { return values_ == 0 ? 5 : values_; }
  int size_levels() const { return values_ == 0 ? 6 : values_; }
  int color_levels() const { return values_ == 0 ? 10 : values_; }
  int confounder_levels() const { return confounder_levels_; }
  int sides(int type) const;
  double scale(int size) const;
  /// Color level 0 is -1 (unfilled).
  int fill(int color) const;
  /// Channel `channel`'s value at `level`: pixels (width), a gray, or a fraction (dot, ring).
  double channel(Channel channel, int level) const;
  /// The look of `entity` with its confounder levels; `outer`: an Out component's entity.
  EntityLook look(const Entity& entity, std::span<const int> confounders, bool outer) const;
  /// The gray of marks (dot, inner outline) over a fill (-1: over the background).
  int mark_gray(int fill) const;
  const RenderStyle& style() const { return style_; }

 private:
  RenderStyle style_;
  int values_ = 0;
  int confounder_levels_ = 10;
};

}  // namespace rave::engine
