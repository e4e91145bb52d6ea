#include "grammar/writer.hpp"

#include <gtest/gtest.h>

namespace rave::grammar {
namespace {

Tree two_component_tree() {
  Tree t;
  const auto scene = add_node(t, "Scene", Level::kRoot);
  const auto s = add_child(t, scene, "Out_In", Level::kStructure);
  const auto out = add_child(t, s, "Out", Level::kComponent);
  add_child(t, out, "Out_Center_Single", Level::kLayout);
  const auto in = add_child(t, s, "In", Level::kComponent);
  add_child(t, in, "In_Distribute_Four", Level::kLayout);
  return t;
}

TEST(Writer, StructureTokensArePreOrderWithEndMarkers) {
  const auto tokens = structure_tokens(two_component_tree());
  const std::vector<std::string> expected{"Scene", "Out_In", "Out", "Out_Center_Single",
                                          "/",     "/",      "In",  "In_Distribute_Four",
                                          "/",     "/",      "/",   "/"};
  EXPECT_EQ(tokens, expected);
}

TEST(Writer, MetaStructureMarksEveryNamedNode) {
  const auto bits = meta_structure(two_component_tree());
  std::array<std::uint8_t, 21> expected{};
  for (int i : {3, 8, 9, 18, 20}) expected[static_cast<std::size_t>(i)] = 1;
  EXPECT_EQ(bits, expected);
}

TEST(Writer, EntitiesAppearOnlyInTheAttributedSentence) {
  Tree t = two_component_tree();
  const auto layout = children(t, children(t, children(t, root(t))[0])[1])[0];
  const auto e = add_child(t, layout, "Entity", Level::kEntity);
  t[e].attributes = {{"slot", "2"}, {"Type", "3"}};
  EXPECT_EQ(write_sentence(t),
            "Scene Out_In Out Out_Center_Single / / In In_Distribute_Four Entity[slot=2 Type=3] / "
            "/ / / /");
  EXPECT_EQ(structure_tokens(t).size(), 12u);
}

}  // namespace
}  // namespace rave::grammar
