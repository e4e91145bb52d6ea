#include "engine/model/configuration.hpp"

#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "engine/model/structure.hpp"

namespace rave::engine {
namespace {

TEST(Configuration, SlotTablesMatchSpecSection2) {
  const auto& nine = configuration(ConfigId::kDistributeNine).components[0].layout;
  ASSERT_EQ(nine.slots.size(), 9u);
  EXPECT_EQ(nine.slots[5], (Slot{.y = 0.5, .x = 0.83, .h = 0.33, .w = 0.33}));
  const auto& oig = configuration(ConfigId::kOutInGrid);
  ASSERT_EQ(oig.components.size(), 2u);
  EXPECT_EQ(oig.components[1].layout.slots[1], (Slot{.y = 0.42, .x = 0.58, .h = 0.15, .w = 0.15}));
  EXPECT_EQ(oig.components[1].layout.size, (Range{2, 5}));
  EXPECT_EQ(oig.components[0].layout.color, (Range{0, 0}));
  for (const auto& c : all_configurations())
    for (const auto& comp : c.components) EXPECT_EQ(comp.layout.type, (Range{1, 5})) << c.folder;
}

TEST(Configuration, LookupByFolderPaperNameAndAlias) {
  EXPECT_EQ(find_configuration("in_distribute_four_out_center_single"), ConfigId::kOutInGrid);
  EXPECT_EQ(find_configuration("L-R"), ConfigId::kLeftRight);
  EXPECT_EQ(find_configuration("3x3"), ConfigId::kDistributeNine);
  EXPECT_FALSE(find_configuration("hexagonal"));
}

TEST(Configuration, ConfigurationNamedThrowsTheCliMessage) {
  EXPECT_EQ(configuration_named("oig"), ConfigId::kOutInGrid);
  try {
    configuration_named("hexagonal");
    FAIL() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()),
              "unknown configuration 'hexagonal'; known: " + configuration_names());
  }
}

TEST(Configuration, EveryAliasFindsItsOwnConfiguration) {
  for (const auto& c : all_configurations()) {
    ASSERT_FALSE(configuration_aliases(c.id).empty()) << c.folder;
    for (auto alias : configuration_aliases(c.id))
      EXPECT_EQ(find_configuration(alias), c.id) << alias;
  }
  EXPECT_EQ(configuration_aliases(ConfigId::kOutInGrid)[0], "oig");
}

TEST(Structure, SentencesOfAllSevenConfigurations) {
  auto joined = [](ConfigId id) {
    std::string s;
    for (const auto& t : structure_tokens(id)) s += (s.empty() ? "" : " ") + t;
    return s;
  };
  EXPECT_EQ(joined(ConfigId::kCenterSingle), "Scene Singleton Grid Center_Single / / / /");
  EXPECT_EQ(joined(ConfigId::kDistributeNine), "Scene Singleton Grid Distribute_Nine / / / /");
  EXPECT_EQ(joined(ConfigId::kLeftRight),
            "Scene Left_Right Left Left_Center_Single / / Right Right_Center_Single / / / /");
  EXPECT_EQ(joined(ConfigId::kOutInCenter),
            "Scene Out_In Out Out_Center_Single / / In In_Center_Single / / / /");
  const auto& bits = meta_structure(ConfigId::kCenterSingle);
  EXPECT_EQ(bits[0], 1);
  EXPECT_EQ(bits[10], 1);
  EXPECT_EQ(bits[11], 1);
}

}  // namespace
}  // namespace rave::engine
