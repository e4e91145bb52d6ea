#include "perception/robust_parse.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>
#include <vector>

#include "engine/model/attributes.hpp"
#include "engine/render/entity_geometry.hpp"
#include "engine/render/render.hpp"
#include "perception/slot_table.hpp"

namespace rave::perception {
namespace {

using engine::Entity;
using engine::Image;

// A pixel differing from what lies below by more than this is not noise of the sizes this mode is
// for (sigma 10-25 makes such a difference with probability under 1%): an entity is there.
constexpr int kInkStep = 64;
constexpr int kMinInkPixels = 3;

long sad(const std::uint8_t* a, const std::uint8_t* b, int n) {
  long s = 0;
  for (int i = 0; i < n; ++i) s += std::abs(static_cast<int>(a[i]) - static_cast<int>(b[i]));
  return s;
}

bool looks_empty(const std::vector<std::uint8_t>& seen, const std::vector<std::uint8_t>& under) {
  int ink = 0;
  for (std::size_t i = 0; i < seen.size(); ++i)
    ink += std::abs(static_cast<int>(seen[i]) - static_cast<int>(under[i])) > kInkStep;
  return ink < kMinInkPixels;
}

// The two Color levels whose gray is nearest the median of the 3x3 patch at the slot's centre.
std::array<int, 2> fill_colors(const engine::Slot& slot, const std::uint8_t* image,
                               engine::Range colors) {
  const engine::PixelPoint c = engine::shape_geometry(slot, engine::kSquare, 0).center;
  std::array<int, 9> patch{};
  for (int dy = -1, k = 0; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx, ++k)
      patch[k] = image[std::clamp(c.y + dy, 0, engine::kPanelSize - 1) * engine::kPanelSize +
                       std::clamp(c.x + dx, 0, engine::kPanelSize - 1)];
  std::nth_element(patch.begin(), patch.begin() + 4, patch.end());
  std::array<int, 2> best{colors.min, colors.min};
  std::array<int, 2> distance{std::numeric_limits<int>::max(), std::numeric_limits<int>::max()};
  for (int level = colors.min; level <= colors.max; ++level) {
    const int d = std::abs(engine::kColorValues[level] - patch[4]);
    if (d < distance[0]) {
      best[1] = best[0], distance[1] = distance[0];
      best[0] = level, distance[0] = d;
    } else if (d < distance[1]) {
      best[1] = level, distance[1] = d;
    }
  }
  return best;
}

// The entity (or none: false) whose drawing over `below` is nearest the image in the region.
bool nearest_entity(engine::ConfigId config, int component, const SlotTable& table,
                    const engine::Slot& slot, const std::uint8_t* below, const std::uint8_t* image,
                    Entity& out) {
  const Region& region = table.region();
  const int n = region.pixels();
  std::vector<std::uint8_t> seen(static_cast<std::size_t>(n)), under(seen.size()),
      drawn(seen.size());
  gather(image, region, seen.data());
  gather(below, region, under.data());
  if (looks_empty(seen, under)) return false;
  const auto& layout = engine::configuration(config).components[component].layout;
  const std::array<int, 2> colors = fill_colors(slot, image, layout.color);
  long best = sad(seen.data(), under.data(), n);
  bool found = false;
  for (const Entity& e : table.candidates()) {
    if (e.color != colors[0] && e.color != colors[1]) continue;
    gather(render_alone(config, component, e).data(), region, drawn.data());
    for (int p = 0; p < n; ++p)
      if (drawn[p] == 255) drawn[p] = under[p];
    const long d = sad(seen.data(), drawn.data(), n);
    if (d < best) best = d, out = e, found = true;
  }
  return found;
}

// The readings that render the region exactly like `chosen` (over white): the table's key of its
// own drawing; with something below, the chosen one alone.
std::vector<Entity> identical_readings(engine::ConfigId config, int component,
                                       const SlotTable& table, const std::uint8_t* below,
                                       const Entity& chosen) {
  std::vector<Entity> out{chosen};
  if (!all_white(below, table.region())) return out;
  const Image drawn = render_alone(config, component, chosen);
  for (const Entity& e : table.find(hash_pixels(drawn.data(), table.region())))
    if (std::none_of(out.begin(), out.end(), [&](const Entity& o) {
          return o.type == e.type && o.size == e.size && o.color == e.color;
        }))
      out.push_back(e);
  return out;
}

}  // namespace

double mean_absolute_difference(const std::uint8_t* a, const std::uint8_t* b) {
  return static_cast<double>(sad(a, b, engine::kPanelPixels)) / engine::kPanelPixels;
}

PanelParse parse_panel_robust(engine::ConfigId config, const std::uint8_t* image,
                              double& residual) {
  const ConfigTables& tables = config_tables(config);
  const auto& components = engine::configuration(config).components;
  PanelParse parse;
  parse.panel.components.resize(components.size());
  parse.readings.resize(components.size());
  Image below;
  below.fill(255);
  for (int c = 0; c < tables.components(); ++c) {
    if (c > 0) below = engine::render_panel(config, parse.panel);
    for (int s = 0; s < tables.slots(c); ++s) {
      Entity e;
      if (!nearest_entity(config, c, tables.slot(c, s), components[c].layout.slots[s], below.data(),
                          image, e))
        continue;
      parse.panel.components[c].entities.push_back(e);
      parse.readings[c].push_back(
          identical_readings(config, c, tables.slot(c, s), below.data(), e));
    }
  }
  const Image drawn = engine::render_panel(config, parse.panel);
  residual = mean_absolute_difference(drawn.data(), image);
  for (std::size_t c = 0; c < components.size();
       ++c)  // no panel of this configuration: nothing explained
    if (!components[c].layout.number.contains(
            static_cast<int>(parse.panel.components[c].entities.size()) - 1))
      residual = 255;
  parse.exact = residual == 0;
  return parse;
}

}  // namespace rave::perception
