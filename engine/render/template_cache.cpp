// The process-wide cache of entity templates (engine/render/internal/entity_template.hpp), and its
// disk form: per configuration an index (entity key, offset, length, checksum of each template)
// checked with the file, then the templates, each read and checked only when first asked for, so
// a process maps the file but touches just the templates it draws.
#include <array>
#include <atomic>
#include <memory>
#include <mutex>

#include "common/cache_file.hpp"
#include "common/error.hpp"
#include "engine/render/internal/entity_template.hpp"

namespace rave::engine::internal {
namespace {

constexpr int kTypes = 6, kSizes = 6, kAngles = 8;
constexpr int kPerSlot = kTypes * kSizes * kAngles;

// Dense numbering of every (configuration, component, slot).
struct SlotIndex {
  std::array<std::array<int, 2>, kNumConfigs> first{};
  int total = 0;
};

const SlotIndex& slot_index() {
  static const SlotIndex index = [] {
    SlotIndex s;
    for (const Configuration& c : all_configurations())
      for (std::size_t k = 0; k < c.components.size(); ++k) {
        s.first[static_cast<std::size_t>(config_index(c.id))][k] = s.total;
        s.total += static_cast<int>(c.components[k].layout.slots.size());
      }
    return s;
  }();
  return index;
}

// A template's bytes in a mapped cache file, read on first use.
struct Stored {
  std::string_view bytes;
  std::uint64_t sum = 0;
};

struct Cache {
  std::unique_ptr<std::atomic<const EntityTemplate*>[]> slots;
  std::vector<std::unique_ptr<EntityTemplate>> owned;
  std::vector<Stored> stored;                      // by key; empty views where nothing is stored
  std::vector<std::shared_ptr<const void>> files;  // the mappings `stored` points into
  std::mutex mutex;
  explicit Cache(int n)
      : slots(new std::atomic<const EntityTemplate*>[static_cast<std::size_t>(n)]),
        stored(static_cast<std::size_t>(n)) {
    for (int i = 0; i < n; ++i)
      slots[static_cast<std::size_t>(i)].store(nullptr, std::memory_order_relaxed);
  }
};

Cache& cache() {
  static Cache c(slot_index().total * kPerSlot);
  return c;
}

// The cache's key of an entity in a slot.
std::size_t template_key(ConfigId config, int component, const Entity& entity) {
  const int slot = slot_index().first[static_cast<std::size_t>(config_index(config))]
                                     [static_cast<std::size_t>(component)] +
                   entity.slot;
  return static_cast<std::size_t>(((slot * kTypes + entity.type) * kSizes + entity.size) * kAngles +
                                  entity.angle);
}

// Calls f(component, entity) for every entity a template exists for in `config`.
template <class F>
void each_entity(ConfigId config, F f) {
  const Configuration& c = configuration(config);
  for (std::size_t k = 0; k < c.components.size(); ++k)
    for (int slot = 0; slot < static_cast<int>(c.components[k].layout.slots.size()); ++slot)
      for (int type = 0; type < kTypes; ++type)
        for (int size = 0; size < kSizes; ++size)
          for (int angle = 0; angle < kAngles; ++angle)
            f(static_cast<int>(k), Entity{slot, type, size, 0, angle});
}

void write_template(ByteWriter& w, const EntityTemplate& t) {
  w.array(t.segments);
  w.array(t.weights);
  w.text(t.mask_rle);
  w.text(t.real_bbox_json);
}

// The stored template `key`, read and checked; null when it fails (it is built instead).
std::unique_ptr<EntityTemplate> read_stored(const Stored& s) {
  if (s.bytes.empty() || checksum(s.bytes) != s.sum) return nullptr;
  try {
    ByteReader r(s.bytes);
    auto t = std::make_unique<EntityTemplate>();
    t->segments = r.array<TemplateSegment>();
    t->weights = r.array<std::int16_t>();
    t->mask_rle = r.text();
    t->real_bbox_json = r.text();
    return r.done() ? std::move(t) : nullptr;
  } catch (const CacheError&) {
    return nullptr;
  }
}

}  // namespace

const EntityTemplate& entity_template(ConfigId config, int component, const Entity& entity) {
  const Configuration& c = configuration(config);
  RAVE_CHECK(component >= 0 && component < static_cast<int>(c.components.size()),
             "component out of range");
  const auto& slots = c.components[static_cast<std::size_t>(component)].layout.slots;
  RAVE_CHECK(entity.slot >= 0 && entity.slot < static_cast<int>(slots.size()),
             "entity slot out of range");
  RAVE_CHECK(entity.type >= 0 && entity.type < kTypes && entity.size >= 0 && entity.size < kSizes &&
                 entity.angle >= 0 && entity.angle < kAngles,
             "entity level out of range");
  const std::size_t key = template_key(config, component, entity);
  Cache& cached = cache();
  if (const EntityTemplate* t = cached.slots[key].load(std::memory_order_acquire)) return *t;
  std::unique_ptr<EntityTemplate> made;
  {
    std::lock_guard lock(cached.mutex);
    made = read_stored(cached.stored[key]);
  }
  if (!made)
    made = std::make_unique<EntityTemplate>(
        build_entity_template(slots[static_cast<std::size_t>(entity.slot)], entity));
  std::lock_guard lock(cached.mutex);
  if (const EntityTemplate* t = cached.slots[key].load(std::memory_order_acquire)) return *t;
  cached.owned.push_back(std::move(made));
  cached.slots[key].store(cached.owned.back().get(), std::memory_order_release);
  return *cached.owned.back();
}

TemplateBytes config_templates_bytes(ConfigId config) {
  ByteWriter index, blobs;
  std::uint64_t count = 0;
  each_entity(config, [&](int component, const Entity& e) {
    ByteWriter one;
    write_template(one, entity_template(config, component, e));
    index.u64(template_key(config, component, e));
    index.u64(blobs.bytes().size());
    index.u64(one.bytes().size());
    index.u64(checksum(one.bytes()));
    blobs.bytes() += one.bytes();
    ++count;
  });
  ByteWriter all;
  all.u64(count);
  all.bytes() += index.bytes();
  const std::size_t checked = all.bytes().size();
  all.bytes() += blobs.bytes();
  return {std::move(all.bytes()), checked};
}

void attach_config_templates(ConfigId config, std::string_view payload,
                             std::shared_ptr<const void> file) {
  ByteReader r(payload);
  const std::uint64_t count = r.u64();
  const std::size_t blobs = 8 + count * 32;
  if (count > payload.size() / 32 || blobs > payload.size())
    throw CacheError("cache: an index past the end");
  std::vector<std::pair<std::size_t, Stored>> read;
  const std::size_t keys = static_cast<std::size_t>(slot_index().total) * kPerSlot;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::uint64_t key = r.u64(), offset = r.u64(), length = r.u64(), sum = r.u64();
    if (key >= keys || offset > payload.size() - blobs || length > payload.size() - blobs - offset)
      throw CacheError("cache: a template past the end");
    read.emplace_back(key, Stored{payload.substr(blobs + offset, length), sum});
  }
  (void)config;
  Cache& cached = cache();
  std::lock_guard lock(cached.mutex);
  cached.files.push_back(std::move(file));
  for (const auto& [key, stored] : read) cached.stored[key] = stored;
}

}  // namespace rave::engine::internal
