#include "grammar/tree.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace rave::grammar {

NodeId add_node(Tree& tree, std::string label, Level level) {
  return boost::add_vertex(Node{std::move(label), level, {}}, tree);
}

NodeId add_child(Tree& tree, NodeId parent, std::string label, Level level) {
  const NodeId child = add_node(tree, std::move(label), level);
  boost::add_edge(parent, child, tree);
  return child;
}

std::vector<NodeId> children(const Tree& tree, NodeId node) {
  std::vector<NodeId> out;
  for (auto [it, end] = boost::out_edges(node, tree); it != end; ++it)
    out.push_back(boost::target(*it, tree));
  return out;
}

NodeId root(const Tree& tree) {
  RAVE_CHECK(boost::num_vertices(tree) > 0, "empty tree has no root");
  return 0;
}

namespace {

bool same_subtree(const Tree& a, NodeId na, const Tree& b, NodeId nb) {
  if (!(a[na] == b[nb])) return false;
  const auto ca = children(a, na);
  const auto cb = children(b, nb);
  if (ca.size() != cb.size()) return false;
  for (std::size_t i = 0; i < ca.size(); ++i)
    if (!same_subtree(a, ca[i], b, cb[i])) return false;
  return true;
}

}  // namespace

bool same_tree(const Tree& a, const Tree& b) {
  if (boost::num_vertices(a) == 0 || boost::num_vertices(b) == 0)
    return boost::num_vertices(a) == boost::num_vertices(b);
  return same_subtree(a, root(a), b, root(b));
}

namespace {
// Depth-first from the root with an explicit stack, so that hand-built trees of any depth are safe.
// With children pushed last-to-first they are visited in order (pre-order); pushed first-to-last,
// the visit is a mirrored pre-order, whose reversal is a post-order.
std::vector<NodeId> depth_first(const Tree& tree, bool children_in_order) {
  std::vector<NodeId> order;
  if (boost::num_vertices(tree) == 0) return order;
  order.reserve(boost::num_vertices(tree));
  std::vector<NodeId> stack{root(tree)};
  while (!stack.empty()) {
    const NodeId node = stack.back();
    stack.pop_back();
    order.push_back(node);
    const auto [first, last] = boost::out_edges(node, tree);
    if (children_in_order) {
      for (auto it = last; it != first;) stack.push_back(boost::target(*--it, tree));
    } else {
      for (auto it = first; it != last; ++it) stack.push_back(boost::target(*it, tree));
    }
  }
  return order;
}
}  // namespace

std::vector<NodeId> preorder(const Tree& tree) { return depth_first(tree, true); }

std::vector<NodeId> bottom_up(const Tree& tree) {
  std::vector<NodeId> order = depth_first(tree, false);
  return {order.rbegin(), order.rend()};
}

std::vector<NodeId> parents(const Tree& tree) {
  std::vector<NodeId> parent(boost::num_vertices(tree), kNoParent);
  for (const NodeId node : preorder(tree))
    for (auto [it, end] = boost::out_edges(node, tree); it != end; ++it)
      parent[boost::target(*it, tree)] = node;
  return parent;
}

std::vector<int> depths(const Tree& tree) {
  std::vector<int> depth(boost::num_vertices(tree), -1);
  const auto order = preorder(tree);
  if (!order.empty()) depth[order.front()] = 0;
  for (const NodeId node : order)
    for (auto [it, end] = boost::out_edges(node, tree); it != end; ++it)
      depth[boost::target(*it, tree)] = depth[node] + 1;
  return depth;
}

int depth(const Tree& tree) {
  int deepest = -1;
  for (const int d : depths(tree)) deepest = std::max(deepest, d);
  return deepest;
}

const Attribute* find_attribute(const Node& node, std::string_view name) {
  for (const auto& attribute : node.attributes)
    if (attribute.name == name) return &attribute;
  return nullptr;
}

}  // namespace rave::grammar
