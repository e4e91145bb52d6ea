#include "engine/render/styled.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include "common/error.hpp"

namespace rave::engine {
namespace {

constexpr double kPi = std::numbers::pi;

double inside(bool smooth, double d) {
  return smooth ? std::clamp(0.5 - d, 0.0, 1.0) : d < 0 ? 1 : 0;
}
double band(bool smooth, double d, double width) {
  return smooth                     ? std::clamp(width / 2 + 0.5 - std::abs(d), 0.0, 1.0)
         : std::abs(d) <= width / 2 ? 1
                                    : 0;
}

// Premultiplied gray and coverage of one entity at one pixel, its parts laid in drawing order.
struct Ink {
  double gray = 0, alpha = 0;
  void over(double part_gray, double part_alpha) {
    gray = part_gray * part_alpha + gray * (1 - part_alpha);
    alpha = part_alpha + alpha * (1 - part_alpha);
  }
};

int separator_width(const RenderStyle& style) {
  return std::max(1, static_cast<int>(std::lround(style.size / 160.0)));
}

}  // namespace

// The signed distance of a regular polygon (or circle) is the largest projection on an edge
// normal, less the inradius: exact inside and along the normals; outside a corner it gives the
// mitred offset.
EntityRaster::EntityRaster(const EntityPlace& place, const EntityLook& look,
                           const RenderStyle& style)
    : cx_(place.cx), cy_(place.cy), look_(look), smooth_(style.antialias) {
  const double radius = place.unit * look.scale;
  apothem_ = look.sides == 0 ? radius : radius * std::cos(kPi / look.sides);
  half_edge_ = look.sides == 0 ? 0 : radius * std::sin(kPi / look.sides);
  reach_ = apothem_ + look.stroke / 2 + 1;  // beyond it (or far_ from the centre) nothing shows
  far_ = radius + look.stroke / 2 + 1;
  ring_ = ring_width(style);
  // Vertex 0 points up (a square's corners sit at +-45 degrees, as the original draws it);
  // counter-clockwise on screen is a decreasing screen angle (y grows downwards).
  const double first = (look.sides == 4 ? -135.0 : -90.0) - look.angle;
  for (int k = 0; k < look.sides; ++k) {
    const double normal = (first + 360.0 * k / look.sides + 180.0 / look.sides) * kPi / 180;
    nx_.push_back(std::cos(normal));
    ny_.push_back(std::sin(normal));
  }
}

PixelBox EntityRaster::box(int side) const {
  auto clip = [side](double v) { return std::clamp(static_cast<int>(std::floor(v)), 0, side); };
  const double r = far_ + 0.5;
  return {clip(cx_ - r), clip(cy_ - r), clip(cx_ + r + 1), clip(cy_ + r + 1)};
}

double EntityRaster::measure(double x, double y, std::size_t* edge) const {
  const double dx = x - cx_, dy = y - cy_;
  if (nx_.empty()) return std::hypot(dx, dy);
  double m = -1e300;
  for (std::size_t k = 0; k < nx_.size(); ++k) {
    const double p = dx * nx_[k] + dy * ny_[k];
    if (p > m) {
      m = p;
      if (edge != nullptr) *edge = k;
    }
  }
  return m;
}

// Inside, the distance to the nearest edge line; outside, to the edge segment the point faces,
// or to its nearer corner.
double EntityRaster::distance(double x, double y, double m, std::size_t edge) const {
  const double d = m - apothem_;
  if (d <= 0 || nx_.empty()) return d;
  const double dx = x - cx_, dy = y - cy_;
  const double t = -dx * ny_[edge] + dy * nx_[edge];  // along the edge
  if (std::abs(t) <= half_edge_) return d;
  const double side = t > 0 ? half_edge_ : -half_edge_;
  const double vx = nx_[edge] * apothem_ - ny_[edge] * side,
               vy = ny_[edge] * apothem_ + nx_[edge] * side;
  return std::hypot(dx - vx, dy - vy);
}

double EntityRaster::edge_distance(int x, int y) const {
  return measure(x + 0.5, y + 0.5) - apothem_;
}

double EntityRaster::signed_distance(int x, int y) const {
  std::size_t edge = 0;
  const double m = measure(x + 0.5, y + 0.5, &edge);
  return distance(x + 0.5, y + 0.5, m, edge);
}

std::uint8_t EntityRaster::over(int x, int y, std::uint8_t below) const {
  const double px = x + 0.5, py = y + 0.5;
  const double centre = std::hypot(px - cx_, py - cy_);
  if (centre > far_) return below;
  std::size_t edge = 0;
  const double m = measure(px, py, &edge), a = apothem_;
  if (m > reach_) return below;
  const double d = distance(px, py, m, edge);
  Ink ink;
  if (look_.fill >= 0) ink.over(look_.fill, inside(smooth_, d));
  if (look_.ring > 0) ink.over(look_.mark, band(smooth_, m - look_.ring * a, ring_));
  if (look_.dot > 0) ink.over(look_.mark, inside(smooth_, centre - look_.dot * a));
  ink.over(look_.line, band(smooth_, d, look_.stroke));
  if (ink.alpha <= 0) return below;
  const double v = ink.gray + below * (1 - ink.alpha);
  return static_cast<std::uint8_t>(std::clamp(static_cast<int>(v + 0.5), 0, 255));
}

EntityPlace entity_place(const Slot& slot, int side) {
  return {.cx = slot.x * side, .cy = slot.y * side, .unit = std::min(slot.h, slot.w) * side / 2};
}

PixelBox entity_box(const EntityPlace& place, const EntityLook& look, int side) {
  return EntityRaster(place, look, RenderStyle{}).box(side);
}

void draw_entity(std::uint8_t* canvas, int side, const EntityPlace& place, const EntityLook& look,
                 const RenderStyle& style, const PixelBox& clip) {
  const EntityRaster raster(place, look, style);
  const PixelBox box = raster.box(side);
  for (int y = std::max(box.y0, clip.y0); y < std::min(box.y1, clip.y1); ++y) {
    std::uint8_t* row = canvas + static_cast<std::size_t>(y) * static_cast<std::size_t>(side);
    for (int x = std::max(box.x0, clip.x0); x < std::min(box.x1, clip.x1); ++x)
      row[x] = raster.over(x, y, row[x]);
  }
}

bool on_separator(const RenderStyle& style, std::string_view structure, int x, int y) {
  const int w = separator_width(style), first = style.size / 2 - w / 2;
  if (structure == "Left_Right") return x >= first && x < first + w;
  if (structure == "Up_Down") return y >= first && y < first + w;
  return false;
}

void draw_separators(std::uint8_t* canvas, const RenderStyle& style, std::string_view structure) {
  const int side = style.size;
  if (structure != "Left_Right" && structure != "Up_Down") return;
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x)
      if (on_separator(style, structure, x, y))
        canvas[static_cast<std::size_t>(y) * static_cast<std::size_t>(side) +
               static_cast<std::size_t>(x)] = static_cast<std::uint8_t>(style.line);
}

void render_styled_panel(ConfigId config, const Panel& panel, const LevelLooks& looks,
                         std::uint8_t* out) {
  const Configuration& c = configuration(config);
  const RenderStyle& style = looks.style();
  RAVE_CHECK(panel.components.size() == c.components.size(),
             "panel does not fit its configuration");
  const int side = style.size;
  std::memset(out, style.background, static_cast<std::size_t>(side) * side);
  const PixelBox all{0, 0, side, side};
  for (std::size_t k = 0; k < c.components.size(); ++k) {
    const ComponentPanel& comp = panel.components[k];
    const auto& slots = c.components[k].layout.slots;
    const std::size_t per =
        comp.entities.empty() ? 0 : comp.confounders.size() / comp.entities.size();
    const bool outer = c.structure == "Out_In" && k == 0;
    for (std::size_t i = 0; i < comp.entities.size(); ++i) {
      const Entity& e = comp.entities[i];
      const EntityLook look =
          looks.look(e, std::span(comp.confounders).subspan(i * per, per), outer);
      draw_entity(out, side, entity_place(slots.at(static_cast<std::size_t>(e.slot)), side), look,
                  style, all);
    }
  }
  draw_separators(out, style, c.structure);
}

}  // namespace rave::engine
