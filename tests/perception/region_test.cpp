// Regions and their keys (perception/region.hpp) and the slot tables built on them
// (perception/slot_table.hpp): the key sees exactly the region's pixels, the regions of one
// component never share a pixel, and every entity a layout allows is found under its own key.
#include "perception/region.hpp"

#include <gtest/gtest.h>

#include "common/random.hpp"
#include "perception/slot_table.hpp"

namespace rave::perception {
namespace {

engine::Image random_mask(Rng& rng) {
  engine::Image mask{};
  for (int k = 0; k < 40; ++k) {  // runs of every length, at row ends too
    const int y = rng.below(engine::kPanelSize), x = rng.below(engine::kPanelSize);
    const int length = rng.uniform_int(1, 30);
    for (int i = x; i < std::min(engine::kPanelSize, x + length); ++i)
      mask[y * engine::kPanelSize + i] = 1;
  }
  return mask;
}

TEST(Region, TheKeySeesExactlyTheRegionsPixels) {
  Rng rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const engine::Image mask = random_mask(rng);
    const Region region = Region::from_mask(mask);
    engine::Image image;
    for (auto& v : image) v = static_cast<std::uint8_t>(rng.below(256));
    const std::uint64_t key = hash_pixels(image.data(), region);
    const int p = rng.below(engine::kPanelPixels);
    engine::Image changed = image;
    changed[p] = static_cast<std::uint8_t>(changed[p] ^ (1 + rng.below(255)));
    EXPECT_EQ(hash_pixels(changed.data(), region) == key, mask[p] == 0) << trial;
    EXPECT_EQ(same_pixels(image.data(), changed.data(), region), mask[p] == 0);
  }
}

TEST(Region, CountsAndGathersItsPixelsInRasterOrder) {
  Rng rng(12);
  const engine::Image mask = random_mask(rng);
  const Region region = Region::from_mask(mask);
  engine::Image image;
  for (int p = 0; p < engine::kPanelPixels; ++p) image[p] = static_cast<std::uint8_t>(p * 7);
  std::vector<std::uint8_t> gathered(static_cast<std::size_t>(region.pixels()));
  gather(image.data(), region, gathered.data());
  std::vector<std::uint8_t> want;
  for (int p = 0; p < engine::kPanelPixels; ++p)
    if (mask[p] != 0) want.push_back(image[p]);
  EXPECT_EQ(gathered, want);
  engine::Image white;
  white.fill(255);
  EXPECT_TRUE(all_white(white.data(), region));
  EXPECT_FALSE(all_white(image.data(), region));
}

// What each slot's table promises, for every configuration.
TEST(SlotTables, RegionsAreDisjointAndEveryEntityIsFoundUnderItsKey) {
  for (int c = 0; c < engine::kNumConfigs; ++c) {
    const auto config = static_cast<engine::ConfigId>(c);
    const ConfigTables& tables = config_tables(config);
    engine::Image owner{};
    for (int k = 0; k < tables.components(); ++k)
      for (int s = 0; s < tables.slots(k); ++s) {
        const SlotTable& t = tables.slot(k, s);
        t.region().for_each_run([&](int offset, int length) {
          for (int i = offset; i < offset + length; ++i)
            EXPECT_EQ(owner[i]++, 0) << c << " pixel " << i;
        });
        for (const engine::Entity& e : t.candidates()) {
          const engine::Image drawn = render_alone(config, k, e);
          const auto found = t.find(hash_pixels(drawn.data(), t.region()));
          EXPECT_TRUE(std::any_of(found.begin(), found.end(),
                                  [&](const engine::Entity& f) { return f == e; }))
              << c << " component " << k << " slot " << s;
        }
      }
    EXPECT_GT(tables.bytes(), 0u);
  }
}

}  // namespace
}  // namespace rave::perception
