#include "perception/panel_parse.hpp"

#include <algorithm>
#include <cstring>

#include "engine/render/render.hpp"
#include "perception/slot_table.hpp"

namespace rave::perception {
namespace {

using engine::Entity;

bool same_class(const Entity& a, const Entity& b) {
  return a.type == b.type && a.size == b.size && a.color == b.color;
}

// One entity per distinct (Type, Size, Color), in table order.
std::vector<Entity> one_per_class(std::span<const Entity> readings) {
  std::vector<Entity> out;
  for (const Entity& e : readings)
    if (std::none_of(out.begin(), out.end(), [&](const Entity& o) { return same_class(o, e); }))
      out.push_back(e);
  return out;
}

// The candidates whose layer over `under` (what lies below, region order) gives the image's
// pixels in the region (composited as the renderer does: a layer pixel of 255 leaves what lies
// below). Empty when none does.
std::vector<Entity> composite_matches(const SlotTable& table,
                                      const std::vector<std::uint8_t>& under,
                                      const std::uint8_t* image) {
  const int n = table.region().pixels();
  std::vector<std::uint8_t> seen(static_cast<std::size_t>(n));
  gather(image, table.region(), seen.data());
  std::vector<Entity> out;
  const auto candidates = table.candidates();
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const std::uint8_t* layer = table.layer(static_cast<int>(i));
    int p = 0;
    while (p < n && (layer[p] != 255 ? layer[p] : under[p]) == seen[p]) ++p;
    if (p == n) out.push_back(candidates[i]);
  }
  return out;
}

// What a slot shows over `under` (empty: white below): no entity (true, empty list), these
// readings, or nothing the table knows (false).
bool read_slot(const SlotTable& table, const std::vector<std::uint8_t>& under,
               const std::uint8_t* image, std::vector<Entity>& out) {
  out.clear();
  if (under.empty()) {
    const std::uint64_t key = hash_pixels(image, table.region());
    if (key == table.white_key()) return true;
    out = one_per_class(table.find(key));
    return !out.empty();
  }
  std::vector<std::uint8_t> seen(under.size());
  gather(image, table.region(), seen.data());
  if (seen == under) return true;
  out = one_per_class(composite_matches(table, under, image));
  return !out.empty();
}

bool renders_as(engine::ConfigId config, const engine::Panel& panel, const std::uint8_t* image) {
  const engine::Image drawn = engine::render_panel(config, panel);
  return std::memcmp(drawn.data(), image, drawn.size()) == 0;
}

// Keeps, for every entity with several readings, those that re-render the image with the other
// entities at their first reading (the region decides most; this checks the pixels it leaves out).
void keep_rendering_readings(engine::ConfigId config, PanelParse& parse,
                             const std::uint8_t* image) {
  for (std::size_t c = 0; c < parse.readings.size(); ++c)
    for (std::size_t j = 0; j < parse.readings[c].size(); ++j) {
      auto& list = parse.readings[c][j];
      if (list.size() < 2) continue;
      engine::Panel trial = parse.panel;
      std::vector<Entity> kept{list.front()};
      for (std::size_t r = 1; r < list.size(); ++r) {
        trial.components[c].entities[j] = list[r];
        if (renders_as(config, trial, image)) kept.push_back(list[r]);
      }
      list = std::move(kept);
    }
}

}  // namespace

PanelParse parse_panel(engine::ConfigId config, const std::uint8_t* image) {
  static const std::vector<std::uint8_t> kWhite;
  const ConfigTables& tables = config_tables(config);
  PanelParse parse;
  parse.panel.components.resize(static_cast<std::size_t>(tables.components()));
  parse.readings.resize(parse.panel.components.size());
  std::vector<Entity> found;
  int first = -1;  // component 0's reading, which lies below component 1
  for (int c = 0; c < tables.components(); ++c) {
    if (c == 1 && first < 0) return parse;  // component 0 must hold its entity
    for (int s = 0; s < tables.slots(c); ++s) {
      if (!read_slot(tables.slot(c, s), c == 0 ? kWhite : tables.under(first, s), image, found))
        return parse;
      if (found.empty()) continue;
      parse.panel.components[c].entities.push_back(found.front());
      parse.readings[c].push_back(found);
      if (c == 0 && tables.components() == 2) first = tables.slot(0, 0).index_of(found.front());
    }
  }
  for (int c = 0; c < tables.components(); ++c) {  // a panel of this configuration has these counts
    const engine::Range number = engine::configuration(config).components[c].layout.number;
    if (!number.contains(static_cast<int>(parse.panel.components[c].entities.size()) - 1))
      return parse;
  }
  parse.exact = renders_as(config, parse.panel, image);
  if (parse.exact) keep_rendering_readings(config, parse, image);
  return parse;
}

}  // namespace rave::perception
