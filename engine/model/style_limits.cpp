#include "engine/model/style_limits.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <numbers>

#include "engine/model/look.hpp"
#include "engine/model/variant_space.hpp"

namespace rave::engine {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kSlack = 1e-9;  // rounding: a gap of exactly `step` passes

// One component's geometry and level ranges under a style and variant.
struct Part {
  const ComponentSpec* spec = nullptr;
  bool outer = false;  // the Out component of an Out_In configuration
  double unit = 0;     // pixels
  Range type, size, color;
};

std::vector<Part> parts(const RenderStyle& style, const Variant& v, ConfigId config) {
  const Configuration& c = configuration(config);
  std::vector<Part> out;
  for (const ComponentSpec& comp : c.components) {
    Part p{.spec = &comp,
           .outer = c.structure == "Out_In" && &comp == &c.components.front(),
           .unit = 1e9,
           .type = drawn_range(comp.layout.type, Attr::kType, v),
           .size = drawn_range(comp.layout.size, Attr::kSize, v),
           .color = drawn_range(comp.layout.color, Attr::kColor, v)};
    for (const Slot& s : comp.layout.slots)
      p.unit = std::min(p.unit, std::min(s.h, s.w) * style.size / 2);
    out.push_back(p);
  }
  return out;
}

// The inradius of a shape of circumradius 1 (a circle's is 1).
double inradius(int sides) { return sides == 0 ? 1.0 : std::cos(kPi / sides); }

std::string px(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.2f px", v);
  return b;
}

// What one component's levels and marks fail ("" when nothing).
class Checker {
 public:
  Checker(const LevelLooks& looks, const Part& part, int confounders)
      : looks_(looks), part_(part), drawn_(std::min(confounders, part.outer ? 2 : 4)) {}

  std::string defect() const {
    std::string why = types();
    if (why.empty()) why = sizes();
    if (why.empty()) why = colors();
    if (why.empty()) why = channels();
    if (why.empty()) why = fit();
    return why;
  }

 private:
  double r_min() const { return part_.unit * looks_.scale(part_.size.min); }
  double in_min() const {
    double least = 1;
    for (int t = part_.type.min; t <= part_.type.max; ++t)
      least = std::min(least, inradius(looks_.sides(t)));
    return r_min() * least;
  }
  double stroke_max() const {
    return drawn_ >= 1 ? looks_.channel(Channel::kStrokeWidth, looks_.confounder_levels() - 1)
                       : looks_.style().stroke_px();
  }
  double ring_width() const { return engine::ring_width(looks_.style()); }
  const RenderStyle& style() const { return looks_.style(); }
  std::string pair(const char* attr, int a, double by, const std::string& need) const {
    return std::string(attr) + " levels " + std::to_string(a) + " and " + std::to_string(a + 1) +
           " differ by " + (need.back() == 'x' ? px(by) : std::to_string(static_cast<int>(by))) +
           " (at least " + need + ")";
  }

  std::string types() const {
    for (int t = part_.type.min; t < part_.type.max; ++t) {
      const int n = looks_.sides(t), next = looks_.sides(t + 1);
      const double gap = r_min() * (inradius(next) - inradius(n));
      if (gap < style().step - kSlack) return pair("Type", t, gap, px(style().step));
    }
    return {};
  }
  std::string sizes() const {
    for (int s = part_.size.min; s < part_.size.max; ++s) {
      const double gap = part_.unit * (looks_.scale(s + 1) - looks_.scale(s));
      if (gap < style().step - kSlack) return pair("Size", s, gap, px(style().step));
    }
    return {};
  }
  std::string colors() const {
    const std::string need = std::to_string(style().gray_step) + " gray levels";
    for (int c = std::max(1, part_.color.min); c <= part_.color.max; ++c) {
      const int f = looks_.fill(c);
      if (std::abs(f - style().background) < style().gray_step)
        return "Color level " + std::to_string(c) + " fills with gray " + std::to_string(f) +
               ", too near the background " + std::to_string(style().background) + " (at least " +
               need + ")";
      if (c < part_.color.max && std::abs(looks_.fill(c + 1) - f) < style().gray_step)
        return pair("Color", c, std::abs(looks_.fill(c + 1) - f), need);
    }
    return {};
  }
  std::string channels() const {
    const int levels = looks_.confounder_levels();
    const char* names[] = {"outline width", "outline gray", "dot", "inner outline"};
    for (int i = 0; i < drawn_; ++i)
      for (int l = 0; l + 1 < levels; ++l) {
        const auto ch = static_cast<Channel>(i);
        const double gap =
            std::abs(looks_.channel(ch, l + 1) - looks_.channel(ch, l)) * (i >= 2 ? in_min() : 1.0);
        const bool gray = i == 1;
        if (gray ? gap < style().gray_step : gap < style().step - kSlack)
          return std::string("confounder ") + std::to_string(i + 1) + " (" + names[i] + "): " +
                 pair("its", l, gap,
                      gray ? std::to_string(style().gray_step) + " gray levels" : px(style().step));
      }
    return {};
  }
  std::string fit() const;

  const LevelLooks& looks_;
  const Part& part_;
  int drawn_;
};

// The marks must fit inside the smallest shape, and neighbours must not touch.
std::string Checker::fit() const {
  const double in = in_min(), w = stroke_max();
  if (in - w / 2 < 1.5)
    return "an outline of " + px(w) + " fills the smallest shape (inradius " + px(in) + ")";
  if (drawn_ >= 3 && in * (1 - kDotSpan.last) - w / 2 < 1.5)
    return "the dot meets the outline in the smallest shape (inradius " + px(in) + ")";
  if (drawn_ >= 4 && in * (kRingSpan.first - kDotSpan.last) - ring_width() / 2 < 1)
    return "the dot meets the inner outline in the smallest shape (inradius " + px(in) + ")";
  if (drawn_ >= 4 && in * (1 - kRingSpan.last) - (ring_width() + w) / 2 < 1)
    return "the inner outline meets the outline in the smallest shape (inradius " + px(in) + ")";
  const auto& slots = part_.spec->layout.slots;
  const double reach = part_.unit * looks_.scale(part_.size.max) + w / 2 + 1;
  for (std::size_t a = 0; a < slots.size(); ++a)
    for (std::size_t b = a + 1; b < slots.size(); ++b) {
      const double dx = (slots[a].x - slots[b].x) * style().size,
                   dy = (slots[a].y - slots[b].y) * style().size;
      if (std::hypot(dx, dy) < 2 * reach)
        return "neighbouring entities touch (centres " + px(std::hypot(dx, dy)) +
               " apart, each reaching " + px(reach) + " with its outline)";
    }
  return {};
}

std::string component_defect(const RenderStyle& style, const Variant& v, ConfigId config) {
  if (v.confounders > kDrawnConfounders)
    return std::to_string(v.confounders) + " confounders: a picture shows at most " +
           std::to_string(kDrawnConfounders) + " (outline width, outline gray, dot, inner outline)";
  const LevelLooks looks(style, v);
  for (const Part& p : parts(style, v, config))
    if (std::string why = Checker(looks, p, v.confounders).defect(); !why.empty())
      return std::string(configuration(config).paper_name) + ", " + std::string(p.spec->name) +
             ": " + why;
  return {};
}

}  // namespace

Range drawn_range(Range r, Attr attr, const Variant& v) {
  Range out = v.values == 0 ? r : widened_range(r, attr, v.values);
  if (attr == Attr::kType) out.min = std::max(out.min, 1);
  return out;
}

double widest_stroke(const RenderStyle& style, const Variant& v) {
  if (v.confounders == 0) return style.stroke_px();
  const LevelLooks looks(style, v);
  return looks.channel(Channel::kStrokeWidth, looks.confounder_levels() - 1);
}

std::string style_defect(const RenderStyle& style, const Variant& v, ConfigId config) {
  if (style.is_original()) {
    if (v.drawable()) return {};
    return "a problem with " + std::to_string(v.values) +
           " levels per attribute cannot be drawn in the original style: images need at most " +
           std::to_string(kMaxDrawableValues) + " (--style NAME draws more: docs/rendering.md)";
  }
  if (v.ibm_levels) return "IBM's I-RAVEN-X levels have no drawing";
  std::string why = component_defect(style, v, config);
  if (why.empty()) return why;
  const int most = max_drawable_values(style, v, config);
  return "style " + style.name + " at " + std::to_string(style.size) + " px cannot draw " +
         (v.values == 0 ? std::string("the original levels")
                        : std::to_string(v.values) + " levels per attribute") +
         ": " + why +
         (most > 0 ? "; at most --values " + std::to_string(most) + " there at this size"
                   : std::string("; a larger size, a finer step or fewer levels may"));
}

int max_drawable_values(const RenderStyle& style, const Variant& v, ConfigId config) {
  Variant fewer = v;
  for (int n = std::min(v.values == 0 ? kMaxValues : v.values - 1, kMaxValues); n >= kMinValues;
       --n) {
    fewer.values = n;
    if (component_defect(style, fewer, config).empty()) return n;
  }
  return 0;
}

}  // namespace rave::engine
