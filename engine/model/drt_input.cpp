#include "engine/model/drt_input.hpp"

#include <vector>

#include "common/error.hpp"
#include "grammar/parse.hpp"

namespace rave::engine {
namespace {

// Pre-order labels of the nodes above the entity level.
void collect(const grammar::Tree& tree, grammar::NodeId node,
             std::vector<const grammar::Node*>& out) {
  const grammar::Node& n = tree[node];
  if (n.level == grammar::Level::kEntity) return;
  out.push_back(&n);
  for (auto child : grammar::children(tree, node)) collect(tree, child, out);
}

DrtInput rows_from_labels(const std::vector<std::string_view>& labels, const std::string& source) {
  if (labels.size() > static_cast<std::size_t>(kDrtRows))
    throw InputError(source, "",
                     "structure has " + std::to_string(labels.size()) +
                         " nodes above the entities; the tree input holds at most 6");
  DrtInput in;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const auto row = drt_label_index(labels[i]);
    if (!row)
      throw InputError(source, "node " + std::to_string(i),
                       "unknown structure label '" + std::string(labels[i]) + "'");
    in.labels[i] = *row;
  }
  in.indicator = labels.size() == static_cast<std::size_t>(kDrtRows) ? 1.0f : 0.0f;
  return in;
}

}  // namespace

std::optional<int> drt_label_index(std::string_view name) {
  for (std::size_t i = 0; i < kDrtLabelNames.size(); ++i)
    if (kDrtLabelNames[i] == name) return static_cast<int>(i);
  return std::nullopt;
}

DrtInput drt_input(const grammar::Tree& tree, const std::string& source) {
  if (boost::num_vertices(tree) == 0) throw InputError(source, "", "empty structure");
  std::vector<const grammar::Node*> nodes;
  collect(tree, grammar::root(tree), nodes);
  std::vector<std::string_view> labels;
  for (const auto* n : nodes) labels.push_back(n->label);
  return rows_from_labels(labels, source);
}

DrtInput drt_input_from_tokens(std::span<const std::string> tokens, const std::string& source) {
  return drt_input(grammar::parse_tokens(tokens, source), source);  // SyntaxError is an InputError
}

}  // namespace rave::engine
