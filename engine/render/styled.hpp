#pragma once
// rave's own renderer, for every render style but the original (docs/rendering.md#styles): each
// entity is a regular polygon or circle at its slot's centre (slot.x * side, slot.y * side, not
// truncated), circumradius unit * scale, rotated by its Angle, filled, with its marks (dot, inner
// outline) and its outline of the look's width centred on the edge (round outer corners). Edges are
// weighted by coverage (1/2 - signed distance, clamped) when the style anti-aliases, else a pixel
// is in or out by its centre. Each entity is laid over what lies below by its coverage ("over"),
// rounded to 8 bits once per entity; separators go on last. Deterministic: the same style and
// symbols give the same bytes, which is what perception's analysis by synthesis re-renders.
//
//   LevelLooks looks(style, problem.variant);
//   std::vector<std::uint8_t> panel(side * side);
//   render_styled_panel(problem.config, problem.panel(0), looks, panel.data());
#include <cstdint>
#include <string_view>
#include <vector>

#include "engine/model/configuration.hpp"
#include "engine/model/look.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine {

/// Where an entity sits in a panel of `side` pixels.
struct EntityPlace {
  double cx = 0, cy = 0;  ///< centre, pixels (pixel (x, y) has its centre at x + 0.5, y + 0.5)
  double unit = 0;        ///< min(h, w) * side / 2
};
EntityPlace entity_place(const Slot& slot, int side);

/// A pixel rectangle, inclusive-exclusive: [x0, x1) x [y0, y1).
struct PixelBox {
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
/// The pixels an entity can change (its circumradius, outline and edge), clipped to the panel.
PixelBox entity_box(const EntityPlace& place, const EntityLook& look, int side);

/// One entity's pixels: what each pixel of its box becomes when the entity is laid over it.
class EntityRaster {
 public:
  EntityRaster(const EntityPlace& place, const EntityLook& look, const RenderStyle& style);
  /// The pixels it can change, clipped to a panel of `side`.
  PixelBox box(int side) const;
  /// Pixel (x, y) with the entity laid over `below`.
  std::uint8_t over(int x, int y, std::uint8_t below) const;
  /// The largest projection of the pixel centre on an edge normal, less the inradius (the signed
  /// distance inside; outside it grows to mitred corners).
  double edge_distance(int x, int y) const;
  /// The signed distance of the pixel centre to the outline (negative inside; round outside the
  /// corners).
  double signed_distance(int x, int y) const;
  double inradius() const { return apothem_; }

 private:
  double cx_, cy_, apothem_, half_edge_, reach_, far_, ring_;
  EntityLook look_;
  bool smooth_;
  std::vector<double> nx_, ny_;
  // The largest projection on an edge normal (the distance from the centre for a circle), and
  // the edge that gives it.
  double measure(double x, double y, std::size_t* edge = nullptr) const;
  double distance(double x, double y, double m, std::size_t edge) const;
};

/// Lays the entity over `canvas` (side x side) inside `clip` only.
void draw_entity(std::uint8_t* canvas, int side, const EntityPlace& place, const EntityLook& look,
                 const RenderStyle& style, const PixelBox& clip);
/// The structure's separators (Left_Right, Up_Down), on top of everything.
void draw_separators(std::uint8_t* canvas, const RenderStyle& style, std::string_view structure);
/// Pixels the separators cover: (x, y) with covered(x, y) true.
bool on_separator(const RenderStyle& style, std::string_view structure, int x, int y);
/// The entities of `panel` (its components in order) over the background, then the separators.
void render_styled_panel(ConfigId config, const Panel& panel, const LevelLooks& looks,
                         std::uint8_t* out);

}  // namespace rave::engine
