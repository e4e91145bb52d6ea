#include "grammar/tree.hpp"

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

}  // namespace rave::grammar
