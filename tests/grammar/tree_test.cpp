#include "grammar/tree.hpp"

#include <gtest/gtest.h>

#include "grammar/parse.hpp"

namespace rave::grammar {
namespace {

std::vector<std::string> labels(const Tree& tree, const std::vector<NodeId>& nodes) {
  std::vector<std::string> out;
  for (const NodeId node : nodes) out.push_back(tree[node].label);
  return out;
}

// Built out of pre-order on purpose, so vertex ids and pre-order differ.
Tree shuffled_out_in() {
  Tree t;
  const auto scene = add_node(t, "Scene", Level::kRoot);
  const auto s = add_child(t, scene, "Out_In", Level::kStructure);
  const auto out = add_child(t, s, "Out", Level::kComponent);
  const auto in = add_child(t, s, "In", Level::kComponent);
  const auto grid = add_child(t, in, "In_Distribute_Four", Level::kLayout);
  add_child(t, out, "Out_Center_Single", Level::kLayout);
  add_child(t, grid, "Entity", Level::kEntity);
  add_child(t, grid, "Entity", Level::kEntity);
  return t;
}

TEST(Traversal, PreorderVisitsParentsFirstChildrenInOrder) {
  const Tree t = shuffled_out_in();
  EXPECT_EQ(labels(t, preorder(t)),
            (std::vector<std::string>{"Scene", "Out_In", "Out", "Out_Center_Single", "In",
                                      "In_Distribute_Four", "Entity", "Entity"}));
}

TEST(Traversal, BottomUpPutsEveryChildBeforeItsParent) {
  const Tree t = shuffled_out_in();
  EXPECT_EQ(labels(t, bottom_up(t)),
            (std::vector<std::string>{"Out_Center_Single", "Out", "Entity", "Entity",
                                      "In_Distribute_Four", "In", "Out_In", "Scene"}));
  const auto order = bottom_up(t);
  const auto parent = parents(t);
  std::vector<std::size_t> position(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) position[order[i]] = i;
  for (const NodeId node : order) {
    if (parent[node] == kNoParent) continue;
    EXPECT_LT(position[node], position[parent[node]]);
  }
}

TEST(Traversal, DepthsAndParents) {
  const Tree t = shuffled_out_in();
  const auto d = depths(t);
  const auto p = parents(t);
  for (const NodeId node : preorder(t)) {
    EXPECT_EQ(d[node], static_cast<int>(t[node].level));
    if (node == root(t)) {
      EXPECT_EQ(p[node], kNoParent);
    } else {
      EXPECT_EQ(d[p[node]] + 1, d[node]);
    }
  }
  EXPECT_EQ(depth(t), 4);
  EXPECT_EQ(depth(parse_sentence("Scene /")), 0);
  EXPECT_EQ(depth(Tree{}), -1);
  EXPECT_TRUE(preorder(Tree{}).empty());
  EXPECT_TRUE(bottom_up(Tree{}).empty());
}

TEST(Vocabulary, LevelsNamesAndTokenIds) {
  EXPECT_EQ(names_at(Level::kStructure).size(), 4u);
  EXPECT_EQ(names_at(Level::kComponent).size(), 7u);
  EXPECT_EQ(names_at(Level::kLayout).size(), 10u);
  EXPECT_EQ(names_at(Level::kRoot)[0], kRootName);
  EXPECT_EQ(names_at(Level::kEntity)[0], kEntityName);
  for (std::size_t i = 0; i < kMetaStructureNames.size(); ++i)
    EXPECT_EQ(node_index(kMetaStructureNames[i]), static_cast<int>(i) + 1);
  for (const auto name : kNodeNames)
    for (const auto level :
         {Level::kRoot, Level::kStructure, Level::kComponent, Level::kLayout, Level::kEntity}) {
      const auto names = names_at(level);
      EXPECT_EQ(std::find(names.begin(), names.end(), name) != names.end(), level_of(name) == level)
          << name;
    }
  EXPECT_EQ(level_of("Grid"), Level::kComponent);
  EXPECT_EQ(level_of("In_Distribute_Four"), Level::kLayout);
  EXPECT_EQ(level_of("Gird"), std::nullopt);
  EXPECT_EQ(child_level(Level::kLayout), Level::kEntity);
  EXPECT_EQ(child_level(Level::kEntity), std::nullopt);
  EXPECT_EQ(attribute_names(Level::kComponent).size(), 0u);
  EXPECT_EQ(attribute_names(Level::kEntity)[0], "slot");
}

}  // namespace
}  // namespace rave::grammar
