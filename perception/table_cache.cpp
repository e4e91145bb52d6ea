// The slot tables as bytes, for the disk cache of perception/slot_table.hpp (common/cache_file.hpp):
// per slot its region's runs, its candidates, its keys and readings, the white key and the
// compositing layers where they are used (empty elsewhere); per configuration its slots and what
// component 0 draws under component 1.
#include <memory>

#include "perception/slot_table.hpp"

namespace rave::perception {

void SlotTable::write(ByteWriter& out) const {
  out.u32(static_cast<std::uint32_t>(component_));
  out.array(region_.runs());
  out.array(candidates_);
  out.array(keys_);
  out.array(readings_);
  out.u64(white_key_);
  out.array(layers_);
}

std::unique_ptr<SlotTable> SlotTable::read(engine::ConfigId config, int component, ByteReader& in) {
  std::unique_ptr<SlotTable> t(new SlotTable());
  t->config_ = config;
  t->component_ = static_cast<int>(in.u32());
  if (t->component_ != component) throw CacheError("cache: a slot of another component");
  t->region_ = Region::from_runs(in.array<Region::Run>());
  t->candidates_ = in.array<engine::Entity>();
  t->keys_ = in.array<Key>();
  t->readings_ = in.array<engine::Entity>();
  t->white_key_ = in.u64();
  std::vector<std::uint8_t> layers = in.array<std::uint8_t>();
  const auto expected = static_cast<std::size_t>(t->region_.pixels()) * t->candidates_.size();
  if (!layers.empty() && layers.size() != expected)
    throw CacheError("cache: layers of another size");
  for (const Key& k : t->keys_)
    if (static_cast<std::size_t>(k.first) + k.count > t->readings_.size())
      throw CacheError("cache: a key past its readings");
  if (!layers.empty()) std::call_once(t->layers_once_, [&] { t->layers_ = std::move(layers); });
  return t;
}

// The layers of the slots something may lie below (component 1 under an Out shape) are built
// before writing: those are the ones parse_panel composites; the others are never asked for.
std::string ConfigTables::to_bytes() const {
  for (std::size_t first = 0; first < under_.size(); ++first)
    for (std::size_t s = 0; s < under_[first].size(); ++s)
      if (!under_[first][s].empty()) slots_[1][s]->layer(0);
  ByteWriter out;
  out.u32(static_cast<std::uint32_t>(slots_.size()));
  for (const auto& component : slots_) {
    out.u32(static_cast<std::uint32_t>(component.size()));
    for (const auto& slot : component) slot->write(out);
  }
  out.u32(static_cast<std::uint32_t>(under_.size()));
  for (const auto& first : under_) {
    out.u32(static_cast<std::uint32_t>(first.size()));
    for (const auto& pixels : first) out.array(pixels);
  }
  return std::move(out.bytes());
}

std::unique_ptr<ConfigTables> ConfigTables::from_bytes(engine::ConfigId config,
                                                       std::string_view bytes) {
  std::unique_ptr<ConfigTables> t(new ConfigTables(config, true));
  ByteReader in(bytes);
  const auto& components = engine::configuration(config).components;
  if (in.u32() != components.size()) throw CacheError("cache: another configuration");
  for (std::size_t k = 0; k < components.size(); ++k) {
    if (in.u32() != components[k].layout.slots.size()) throw CacheError("cache: another layout");
    auto& slots = t->slots_.emplace_back();
    for (std::size_t s = 0; s < components[k].layout.slots.size(); ++s)
      slots.push_back(SlotTable::read(config, static_cast<int>(k), in));
  }
  t->under_.resize(in.u32());
  for (auto& first : t->under_) {
    first.resize(in.u32());
    for (auto& pixels : first) pixels = in.array<std::uint8_t>();
  }
  if (!in.done()) throw CacheError("cache: bytes after the tables");
  return t;
}

}  // namespace rave::perception
