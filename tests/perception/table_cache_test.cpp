// The slot tables' disk form (perception/table_cache.cpp): every configuration's tables read back
// from their bytes are the tables (the same bytes again, the same readings for every entity), and
// bytes of another configuration or cut short are refused.
#include <gtest/gtest.h>

#include <cstdlib>

#include "engine/render/render.hpp"
#include "perception/region.hpp"
#include "perception/slot_table.hpp"

namespace rave::perception {
namespace {

// The tables compared are built here, not read from a disk cache an earlier run left.
const bool kNoDiskCache = setenv("RAVE_CACHE_DIR", "off", 1) == 0;

TEST(TableCache, TablesReadBackFromTheirBytes) {
  ASSERT_TRUE(kNoDiskCache);
  for (const engine::Configuration& c : engine::all_configurations()) {
    const ConfigTables& built = config_tables(c.id);
    const std::string bytes = built.to_bytes();
    const auto read = ConfigTables::from_bytes(c.id, bytes);
    EXPECT_EQ(read->to_bytes(), bytes) << c.folder;
    for (int k = 0; k < built.components(); ++k)
      for (int s = 0; s < built.slots(k); ++s) {
        const SlotTable &a = built.slot(k, s), &b = read->slot(k, s);
        ASSERT_EQ(a.candidates().size(), b.candidates().size());
        EXPECT_EQ(a.white_key(), b.white_key());
        for (std::size_t i = 0; i < a.candidates().size(); i += 7) {
          const engine::Image drawn = render_alone(c.id, k, a.candidates()[i]);
          const std::uint64_t key = hash_pixels(drawn.data(), a.region());
          EXPECT_EQ(key, hash_pixels(drawn.data(), b.region()));
          const auto x = a.find(key), y = b.find(key);
          EXPECT_TRUE(std::equal(x.begin(), x.end(), y.begin(), y.end())) << c.folder;
        }
      }
  }
}

TEST(TableCache, BytesOfAnotherConfigurationOrCutShortAreRefused) {
  const std::string bytes = config_tables(engine::ConfigId::kDistributeFour).to_bytes();
  EXPECT_THROW(ConfigTables::from_bytes(engine::ConfigId::kDistributeNine, bytes), CacheError);
  EXPECT_THROW(ConfigTables::from_bytes(engine::ConfigId::kDistributeFour,
                                        std::string_view(bytes).substr(0, bytes.size() / 2)),
               CacheError);
  EXPECT_THROW(ConfigTables::from_bytes(engine::ConfigId::kDistributeFour, bytes + "x"),
               CacheError);
}

}  // namespace
}  // namespace rave::perception
