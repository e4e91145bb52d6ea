#pragma once
// grammar::Tree: an A-SIG parse tree as a Boost.Graph adjacency_list with bundled node properties.
// Vertices are nodes (label, grammar level, attributes); edges point from parent to child, and
// out-edges keep insertion order, so children are ordered. Vertex 0 is the root.
//
//   Tree t;
//   auto root = add_node(t, "Scene", Level::kRoot);
//   auto s = add_child(t, root, "Singleton", Level::kStructure);
//   for (auto child : children(t, root)) ...
//   for (auto node : bottom_up(t)) ...   // children before their parent (the DRT's order)
#include <boost/graph/adjacency_list.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "grammar/vocabulary.hpp"

namespace rave::grammar {

/// One `name=value` attribute of an attributed sentence (values kept as written).
struct Attribute {
  std::string name;
  std::string value;
  friend bool operator==(const Attribute&, const Attribute&) = default;
};

/// Bundled vertex property: what a node is.
struct Node {
  std::string label;                  ///< e.g. "Distribute_Four"
  Level level = Level::kRoot;         ///< grammar level
  std::vector<Attribute> attributes;  ///< in the order written
  friend bool operator==(const Node&, const Node&) = default;
};

/// The tree type: vecS keeps children in insertion order and vertex 0 as the root.
using Tree = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS, Node>;
using NodeId = boost::graph_traits<Tree>::vertex_descriptor;

/// Adds a parentless node (use once, for the root).
NodeId add_node(Tree& tree, std::string label, Level level);
/// Adds `label` as the last child of `parent`.
NodeId add_child(Tree& tree, NodeId parent, std::string label, Level level);
/// Children of `node`, in order.
std::vector<NodeId> children(const Tree& tree, NodeId node);
/// The root (vertex 0); the tree must not be empty.
NodeId root(const Tree& tree);
/// Structural equality: same labels, levels, attributes and child order.
bool same_tree(const Tree& a, const Tree& b);

/// Nodes reachable from the root, parent before children, children in order (empty tree: none).
std::vector<NodeId> preorder(const Tree& tree);
/// Nodes reachable from the root, every node after all of its children (post-order).
std::vector<NodeId> bottom_up(const Tree& tree);
/// The parent of a root or of an unreachable node in parents().
inline constexpr NodeId kNoParent = static_cast<NodeId>(-1);
/// Parent of every node, indexed by NodeId.
std::vector<NodeId> parents(const Tree& tree);
/// Depth of every node, indexed by NodeId: the root is 0, its children 1, ...; -1 when unreachable.
std::vector<int> depths(const Tree& tree);
/// Largest depth of any node: 3 for a structure sentence, 4 with entities, -1 for an empty tree.
int depth(const Tree& tree);
/// Attribute `name` of a node, or nullptr.
const Attribute* find_attribute(const Node& node, std::string_view name);

}  // namespace rave::grammar
