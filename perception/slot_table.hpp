#pragma once
// What each slot of a configuration can show, drawn by engine/render (the forward model): for
// every entity the layout allows there (Type x Size x Color x Angle), the 64-bit key of the pixels
// it leaves in the slot's *region* when drawn over white. The region is every pixel some allowed
// entity of this slot changes, less the pixels another slot of the component or a later component
// can also change (what lies on top there depends on drawing order, which a picture does not
// show). Entities with equal keys draw identical regions: they are the readings of those pixels.
// Tables are made per configuration on first use (all its slots at once), shared process-wide and
// thread-safe: read from the disk cache of this build (common/cache_file.hpp; a few milliseconds)
// or built (tens of milliseconds, with the renderer's templates) and written there; the
// per-entity layers for compositing over what lies below (an Out shape under In entities) are
// built per slot when asked for, and cached with the tables.
//
//   const ConfigTables& t = config_tables(ConfigId::kDistributeFour);
//   const SlotTable& slot = t.slot(0, 2);
//   auto readings = slot.find(hash_pixels(image, slot.region()));  // empty: nothing draws this
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "common/cache_file.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"
#include "perception/region.hpp"

namespace rave::perception {

/// One slot's lookup table.
class SlotTable {
 public:
  /// Builds the table of the entities `candidates` of component `component`, keyed on `region`.
  SlotTable(engine::ConfigId config, int component, Region region,
            std::vector<engine::Entity> candidates);

  const Region& region() const { return region_; }
  /// Every entity the layout allows in this slot, in the order the layers use.
  std::span<const engine::Entity> candidates() const { return candidates_; }
  /// The entities whose pixels over white have key `key` (empty: none).
  std::span<const engine::Entity> find(std::uint64_t key) const;
  /// The key of the region left white (an empty slot).
  std::uint64_t white_key() const { return white_key_; }
  /// The index of `entity` (slot ignored) among candidates(), -1 if the layout does not allow it.
  int index_of(const engine::Entity& entity) const;
  /// Candidate i's pixels in the region, drawn over white (255: the entity leaves the pixel as it
  /// was below). Built on first call for this slot (region pixels x candidates bytes).
  const std::uint8_t* layer(int i) const;
  /// Bytes held: the keys and readings, plus the layers once built.
  std::size_t bytes() const;
  /// The table with its layers (built first), and one read back from such bytes (CacheError when
  /// they are not such).
  void write(ByteWriter& out) const;
  static std::unique_ptr<SlotTable> read(engine::ConfigId config, int component, ByteReader& in);

 private:
  SlotTable() = default;
  struct Key {
    std::uint64_t key;
    std::uint32_t first, count;  // readings_[first, first + count)
  };
  engine::ConfigId config_;
  int component_;
  Region region_;
  std::vector<engine::Entity> candidates_;
  std::vector<Key> keys_;                 // sorted by key
  std::vector<engine::Entity> readings_;  // grouped by key
  std::uint64_t white_key_ = 0;
  mutable std::once_flag layers_once_;
  mutable std::vector<std::uint8_t> layers_;
};

/// The tables of every slot of one configuration.
class ConfigTables {
 public:
  explicit ConfigTables(engine::ConfigId config);
  engine::ConfigId config() const { return config_; }
  const SlotTable& slot(int component, int slot) const { return *slots_[component][slot]; }
  /// What candidate `first` of component 0's single slot draws in the region of slot `slot` of
  /// component 1 (Out under In, Left beside Right), region order; empty when it leaves it white.
  const std::vector<std::uint8_t>& under(int first, int slot) const { return under_[first][slot]; }
  int slots(int component) const { return static_cast<int>(slots_[component].size()); }
  int components() const { return static_cast<int>(slots_.size()); }
  /// Bytes held by all the slot tables.
  std::size_t bytes() const;
  /// Every table and layer as bytes (docs/perception.md#speed: the disk cache), and back.
  std::string to_bytes() const;
  static std::unique_ptr<ConfigTables> from_bytes(engine::ConfigId config, std::string_view bytes);

 private:
  explicit ConfigTables(engine::ConfigId config, bool) : config_(config) {}
  void build_under();

  engine::ConfigId config_;
  std::vector<std::vector<std::unique_ptr<SlotTable>>> slots_;
  std::vector<std::vector<std::vector<std::uint8_t>>>
      under_;  // [component-0 candidate][component-1 slot]
};

/// The tables of `config`, built on first use (thread-safe; the reference lives until exit).
const ConfigTables& config_tables(engine::ConfigId config);
/// Bytes held by every table built so far.
std::size_t table_bytes();

/// One entity alone in its slot of component `component`, rendered (the forward model).
engine::Image render_alone(engine::ConfigId config, int component, const engine::Entity& entity);

}  // namespace rave::perception
