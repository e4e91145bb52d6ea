#include "engine/model/drt_input.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.hpp"
#include "engine/model/structure.hpp"

namespace rave::engine {
namespace {

std::vector<std::string> names(const DrtInput& in) {
  std::vector<std::string> out;
  for (auto row : in.labels)
    out.emplace_back(row < 0 ? "" : kDrtLabelNames[static_cast<std::size_t>(row)]);
  return out;
}

TEST(DrtInput, RowsAreTheStructureTreeInPreOrder) {
  const DrtInput oig = drt_input(structure_tree(ConfigId::kOutInGrid));
  EXPECT_EQ(names(oig), (std::vector<std::string>{"Scene", "Out_In", "Out", "Out_Center_Single",
                                                  "In", "In_Distribute_Four"}));
  EXPECT_EQ(oig.indicator, 1.0f);
  const DrtInput center = drt_input(structure_tree(ConfigId::kCenterSingle));
  EXPECT_EQ(names(center),
            (std::vector<std::string>{"Scene", "Singleton", "Grid", "Center_Single", "", ""}));
  EXPECT_EQ(center.indicator, 0.0f);
}

TEST(DrtInput, TokensGiveTheRowsOfTheirTree) {
  for (const auto& c : all_configurations())
    EXPECT_EQ(drt_input_from_tokens(structure_tokens(c.id), "x.npz"),
              drt_input(structure_tree(c.id)))
        << c.folder;
}

TEST(DrtInput, LabelTableIsGrammarsNodesButEntity) {
  EXPECT_EQ(kDrtLabels, 22);
  EXPECT_EQ(*drt_label_index("Out_In"), 4);
  EXPECT_FALSE(drt_label_index("Entity"));
  EXPECT_FALSE(drt_label_index("/"));
}

TEST(DrtInput, BadSentenceIsAnInputErrorNamingTheSource) {
  const std::vector<std::string> bad{"Scene", "Singleton", "Grid", "Nowhere", "/", "/", "/", "/"};
  try {
    drt_input_from_tokens(bad, "a.npz");
    FAIL() << "accepted a bad sentence";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "a.npz");
  }
}

}  // namespace
}  // namespace rave::engine
