#include "perception/slot_table.hpp"

#include <algorithm>
#include <array>
#include <atomic>

#include "common/error.hpp"
#include "engine/render/render.hpp"

namespace rave::perception {
namespace {

using engine::ConfigId;
using engine::Entity;
using engine::Image;

engine::Panel empty_panel(ConfigId config) {
  engine::Panel panel;
  panel.components.resize(engine::configuration(config).components.size());
  return panel;
}

// Every entity the layout of component `component` allows on `slot`, at the Color levels `colors`.
std::vector<Entity> allowed(const engine::LayoutSpec& layout, int slot, engine::Range colors) {
  std::vector<Entity> out;
  for (int type = std::max(1, layout.type.min); type <= layout.type.max; ++type)
    for (int size = layout.size.min; size <= layout.size.max; ++size)
      for (int color = colors.min; color <= colors.max; ++color)
        for (int angle = layout.angle.min; angle <= layout.angle.max; ++angle)
          out.push_back(Entity{slot, type, size, color, angle});
  return out;
}

// The pixels some allowed entity of a slot changes (drawn with the layout's darkest fill, whose
// pixels include those of every lighter one: a warped layer's value grows with the fill).
Image support(ConfigId config, int component, int slot, const Image& blank) {
  const engine::LayoutSpec& layout = engine::configuration(config).components[component].layout;
  Image mask{};
  for (const Entity& e : allowed(layout, slot, {layout.color.max, layout.color.max})) {
    const Image drawn = render_alone(config, component, e);
    for (int p = 0; p < engine::kPanelPixels; ++p)
      mask[p] |= static_cast<std::uint8_t>(drawn[p] != blank[p]);
  }
  return mask;
}

}  // namespace

Image render_alone(ConfigId config, int component, const Entity& entity) {
  engine::Panel panel = empty_panel(config);
  panel.components[component].entities.push_back(entity);
  return engine::render_panel(config, panel);
}

SlotTable::SlotTable(ConfigId config, int component, Region region, std::vector<Entity> candidates)
    : config_(config),
      component_(component),
      region_(std::move(region)),
      candidates_(std::move(candidates)) {
  RAVE_CHECK(!region_.empty(), "a slot's region has pixels");
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed;
  keyed.reserve(candidates_.size());
  for (std::size_t i = 0; i < candidates_.size(); ++i)
    keyed.emplace_back(hash_pixels(render_alone(config, component, candidates_[i]).data(), region_),
                       static_cast<std::uint32_t>(i));
  std::sort(keyed.begin(), keyed.end());
  engine::Image white;
  white.fill(255);
  white_key_ = hash_pixels(white.data(), region_);
  for (std::size_t i = 0; i < keyed.size(); ++i) {
    if (i == 0 || keyed[i].first != keyed[i - 1].first)
      keys_.push_back(Key{keyed[i].first, static_cast<std::uint32_t>(readings_.size()), 0});
    readings_.push_back(candidates_[keyed[i].second]);
    ++keys_.back().count;
  }
}

std::span<const Entity> SlotTable::find(std::uint64_t key) const {
  const auto it = std::lower_bound(keys_.begin(), keys_.end(), key,
                                   [](const Key& k, std::uint64_t v) { return k.key < v; });
  if (it == keys_.end() || it->key != key) return {};
  return std::span<const Entity>(readings_).subspan(it->first, it->count);
}

int SlotTable::index_of(const Entity& entity) const {
  for (std::size_t i = 0; i < candidates_.size(); ++i) {
    const Entity& c = candidates_[i];
    if (c.type == entity.type && c.size == entity.size && c.color == entity.color &&
        c.angle == entity.angle)
      return static_cast<int>(i);
  }
  return -1;
}

const std::uint8_t* SlotTable::layer(int i) const {
  std::call_once(layers_once_, [this] {
    const std::size_t n = static_cast<std::size_t>(region_.pixels());
    layers_.resize(n * candidates_.size());
    for (std::size_t k = 0; k < candidates_.size(); ++k)
      gather(render_alone(config_, component_, candidates_[k]).data(), region_,
             layers_.data() + k * n);
  });
  return layers_.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(region_.pixels());
}

std::size_t SlotTable::bytes() const {
  return keys_.size() * sizeof(Key) + (readings_.size() + candidates_.size()) * sizeof(Entity) +
         region_.runs().size() * sizeof(Region::Run) + layers_.size();
}

// Regions: a slot's support less the supports of the component's other slots and of every later
// component (drawn over it).
ConfigTables::ConfigTables(ConfigId config) : config_(config) {
  const auto& components = engine::configuration(config).components;
  const Image blank = engine::render_panel(config, empty_panel(config));
  std::vector<std::vector<Image>> supports(components.size());
  for (std::size_t k = 0; k < components.size(); ++k)
    for (std::size_t s = 0; s < components[k].layout.slots.size(); ++s)
      supports[k].push_back(support(config, static_cast<int>(k), static_cast<int>(s), blank));
  slots_.resize(components.size());
  for (std::size_t k = 0; k < components.size(); ++k)
    for (std::size_t s = 0; s < supports[k].size(); ++s) {
      Image mask = supports[k][s];
      for (std::size_t k2 = k; k2 < components.size(); ++k2)
        for (std::size_t s2 = 0; s2 < supports[k2].size(); ++s2)
          if (k2 != k || s2 != s)
            for (int p = 0; p < engine::kPanelPixels; ++p)
              mask[p] &= static_cast<std::uint8_t>(!supports[k2][s2][p]);
      const engine::LayoutSpec& layout = components[k].layout;
      slots_[k].push_back(
          std::make_unique<SlotTable>(config, static_cast<int>(k), Region::from_mask(mask),
                                      allowed(layout, static_cast<int>(s), layout.color)));
    }
  build_under();
}

// Every configuration has one or two components, and the first of two has a single slot.
void ConfigTables::build_under() {
  if (slots_.size() < 2) return;
  RAVE_CHECK(slots_.size() == 2 && slots_[0].size() == 1, "component 0 of two has one slot");
  const SlotTable& first = *slots_[0][0];
  under_.resize(first.candidates().size());
  for (std::size_t i = 0; i < under_.size(); ++i) {
    const Image drawn = render_alone(config_, 0, first.candidates()[i]);
    for (const auto& slot : slots_[1]) {
      auto& pixels = under_[i].emplace_back();
      if (all_white(drawn.data(), slot->region())) continue;
      pixels.resize(static_cast<std::size_t>(slot->region().pixels()));
      gather(drawn.data(), slot->region(), pixels.data());
    }
  }
}

std::size_t ConfigTables::bytes() const {
  std::size_t total = 0;
  for (const auto& slots : under_)
    for (const auto& pixels : slots) total += pixels.size() + sizeof(std::vector<std::uint8_t>);
  for (const auto& component : slots_)
    for (const auto& slot : component) total += slot->bytes();
  return total;
}

namespace {

struct Cache {
  std::array<std::once_flag, engine::kNumConfigs> once;
  std::array<std::atomic<const ConfigTables*>, engine::kNumConfigs> built{};
  std::array<std::unique_ptr<ConfigTables>, engine::kNumConfigs> owned;
};

Cache& cache() {
  static Cache c;
  return c;
}

// The tables from the disk cache of this build, else built and written there. The renderer's
// templates come first, from their own cache: the tables and every later re-render draw with them.
std::unique_ptr<ConfigTables> load_or_build(ConfigId config) {
  engine::warm_templates(config);
  const std::string name = "perception-tables-" + std::string(engine::configuration(config).folder);
  const auto path = cache_path(name);
  if (path)
    if (CacheMapping file; const auto bytes = read_cache(*path, name, file)) try {
        return ConfigTables::from_bytes(config, *bytes);
      } catch (const CacheError&) {  // a file of another layout: rebuilt below
      }
  auto built = std::make_unique<ConfigTables>(config);
  if (path) write_cache(*path, name, built->to_bytes());
  return built;
}

}  // namespace

const ConfigTables& config_tables(ConfigId config) {
  Cache& c = cache();
  const auto i = static_cast<std::size_t>(engine::config_index(config));
  std::call_once(c.once[i], [&] {
    c.owned[i] = load_or_build(config);
    c.built[i].store(c.owned[i].get(), std::memory_order_release);
  });
  return *c.owned[i];
}

std::size_t table_bytes() {
  std::size_t total = 0;
  for (const auto& built : cache().built)
    if (const ConfigTables* t = built.load(std::memory_order_acquire)) total += t->bytes();
  return total;
}

}  // namespace rave::perception
