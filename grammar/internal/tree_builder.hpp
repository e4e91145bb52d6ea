#pragma once
// TreeBuilder (internal): the sink of the sentence grammar's semantic actions. The grammar is
// LL(1) with an expectation point after every node name, so an action never runs for input that
// is later backtracked over; the builder can therefore write straight into the Boost.Graph tree,
// with no intermediate AST.
#include <array>
#include <bitset>
#include <string>
#include <string_view>

#include "common/error.hpp"
#include "grammar/parse.hpp"
#include "grammar/tree.hpp"

namespace rave::grammar::parser {

/// A semantic error found by an action: the byte offset and what was expected there.
struct SemanticFailure {
  const char* where;
  std::string expected;
  std::string got;
};

class TreeBuilder {
 public:
  /// Builds into `tree`; vertices it already has are used first, in order (see parse.cpp). When
  /// `where` is given, records the offsets (from `text_begin`) of every node and attribute name.
  TreeBuilder(Tree& tree, const char* text_begin, SourceMap* where)
      : tree_(tree), text_begin_(text_begin), where_(where) {}

  /// Opens a node labelled kNodeNames[token] as the last child of the open node; `end` is where
  /// its name ends.
  void open(int token, const char* end);
  /// Closes the open node.
  void close();
  /// Starts attribute `index` (into kAllAttributeNames) on the open node; `end` is where its name
  /// ends. Throws SemanticFailure when the node already has it.
  void attribute_name(int index, const char* end);
  /// Sets the value of the attribute just started.
  void attribute_value(std::string_view value);
  /// Number of nodes opened so far.
  std::size_t size() const { return next_; }

  /// Layout then Entity attribute names: the index space of attribute_name().
  static constexpr std::array<std::string_view, 8> kAllAttributeNames{
      "Number", "Position", "Uniformity", "slot", "Type", "Size", "Color", "Angle"};

 private:
  Tree& tree_;
  const char* text_begin_;                       ///< start of the sentence, for SourceMap offsets
  SourceMap* where_;                             ///< null unless the caller wants positions
  std::array<NodeId, kNumLevels> open_{};        ///< the path of open nodes, root first
  int depth_ = 0;                                ///< number of open nodes
  std::bitset<kAllAttributeNames.size()> seen_;  ///< attributes given on the newest node
  NodeId next_ = 0;                              ///< id of the next node to open
};

inline void TreeBuilder::open(int token, const char* end) {
  RAVE_CHECK(depth_ < kNumLevels, "the grammar nests at most five levels");
  const std::string_view name = kNodeNames[static_cast<std::size_t>(token)];
  if (where_ != nullptr) {
    where_->nodes.push_back(static_cast<std::size_t>(end - text_begin_) - name.size());
    where_->attributes.emplace_back();
  }
  const NodeId node = next_ < boost::num_vertices(tree_) ? next_ : boost::add_vertex(tree_);
  ++next_;
  Node& data = tree_[node];
  data.label.assign(name);
  data.level = static_cast<Level>(depth_);  // the grammar puts level k at depth k
  data.attributes.reserve(attribute_names(data.level).size());  // one allocation, not log2(n)
  if (depth_ > 0) boost::add_edge(open_[static_cast<std::size_t>(depth_ - 1)], node, tree_);
  open_[static_cast<std::size_t>(depth_++)] = node;
  seen_.reset();
}

inline void TreeBuilder::close() {
  RAVE_CHECK(depth_ > 0, "'/' closes an open node");
  --depth_;
}

inline void TreeBuilder::attribute_name(int index, const char* end) {
  const auto i = static_cast<std::size_t>(index);
  const std::string_view name = kAllAttributeNames[i];
  if (seen_[i]) {
    const std::string quoted = "'" + std::string(name) + "'";
    throw SemanticFailure{end - name.size(), quoted + " at most once", "a second " + quoted};
  }
  seen_.set(i);
  if (where_ != nullptr)
    where_->attributes.back().push_back(static_cast<std::size_t>(end - text_begin_) - name.size());
  tree_[open_[static_cast<std::size_t>(depth_ - 1)]].attributes.push_back({std::string(name), {}});
}

inline void TreeBuilder::attribute_value(std::string_view value) {
  tree_[open_[static_cast<std::size_t>(depth_ - 1)]].attributes.back().value.assign(value);
}

}  // namespace rave::grammar::parser
