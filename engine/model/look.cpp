#include "engine/model/look.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "common/error.hpp"
#include "engine/model/attributes.hpp"

namespace rave::engine {
namespace {

constexpr double kMinScale = 0.4, kMaxScale = 0.9;  // the original's Size range

double lerp(double a, double b, double t) { return a + (b - a) * t; }
double lerp(ChannelSpan s, double t) { return lerp(s.first, s.last, t); }

// An even spacing of `count` levels: level i's fraction of the way.
double fraction(int i, int count) {
  return count <= 1 ? 0.0 : static_cast<double>(i) / (count - 1);
}

}  // namespace

double gray_lstar(int gray) {
  const double c = gray / 255.0;
  const double y = c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
  const double f = y > 216.0 / 24389.0 ? std::cbrt(y) : (24389.0 / 27.0 * y + 16) / 116;
  return 116 * f - 16;
}

int lstar_gray(double lstar) {
  const double f = (lstar + 16) / 116;
  const double y = f * f * f > 216.0 / 24389.0 ? f * f * f : (116 * f - 16) * 27.0 / 24389.0;
  const double c = y <= 0.0031308 ? 12.92 * y : 1.055 * std::pow(y, 1 / 2.4) - 0.055;
  return std::clamp(static_cast<int>(std::lround(c * 255)), 0, 255);
}

double ring_width(const RenderStyle& style) { return std::max(1.0, 0.5 * style.stroke_px()); }

LevelLooks::LevelLooks(const RenderStyle& style, const Variant& variant)
    : style_(style), values_(variant.values), confounder_levels_(variant.confounder_levels()) {}

int LevelLooks::sides(int type) const {
  RAVE_CHECK(type >= 1 && type <= type_max(), "Type level out of range");
  return type == type_max() ? 0 : type + 2;
}

double LevelLooks::scale(int size) const {
  RAVE_CHECK(size >= 0 && size < size_levels(), "Size level out of range");
  if (values_ == 0) return kSizeValues[static_cast<std::size_t>(size)];
  return kMinScale * std::pow(kMaxScale / kMinScale, fraction(size, values_));
}

int LevelLooks::fill(int color) const {
  RAVE_CHECK(color >= 0 && color < color_levels(), "Color level out of range");
  if (color == 0) return -1;
  const double t = fraction(color - 1, color_levels() - 1);
  if (style_.palette == Palette::kLinear)
    return static_cast<int>(std::lround(lerp(style_.first, style_.last, t)));
  return lstar_gray(lerp(gray_lstar(style_.first), gray_lstar(style_.last), t));
}

double LevelLooks::channel(Channel channel, int level) const {
  RAVE_CHECK(level >= 0 && level < confounder_levels_, "confounder level out of range");
  const double t = fraction(level, confounder_levels_);
  switch (channel) {
    case Channel::kStrokeWidth: return style_.stroke_px() * lerp(kStrokeSpan, t);
    case Channel::kLineGray: {
      const double from = gray_lstar(style_.line), to = gray_lstar(style_.background);
      return lstar_gray(lerp(from, lerp(from, to, kLineReach), t));
    }
    case Channel::kDot: return lerp(kDotSpan, t);
    case Channel::kRing: return lerp(kRingSpan, t);
  }
  return 0;
}

int LevelLooks::mark_gray(int fill) const {
  const int under = fill < 0 ? style_.background : fill;
  return std::abs(under - style_.line) >= std::abs(under - style_.background) ? style_.line
                                                                              : style_.background;
}

EntityLook LevelLooks::look(const Entity& entity, std::span<const int> confounders,
                            bool outer) const {
  EntityLook l{
      .sides = sides(entity.type),
      .scale = scale(entity.size),
      .fill = fill(entity.color),
      .stroke = style_.stroke_px(),
      .line = style_.line,
      .dot = 0,
      .ring = 0,
      .mark = 0,
      .angle = static_cast<double>(kAngleValues.at(static_cast<std::size_t>(entity.angle)))};
  l.mark = mark_gray(l.fill);
  const std::size_t drawn = std::min<std::size_t>(confounders.size(), outer ? 2 : 4);
  for (std::size_t i = 0; i < drawn; ++i) {
    const double v = channel(static_cast<Channel>(i), confounders[i]);
    if (i == 0) l.stroke = v;
    if (i == 1) l.line = static_cast<int>(v);
    if (i == 2) l.dot = v;
    if (i == 3) l.ring = v;
  }
  return l;
}

}  // namespace rave::engine
