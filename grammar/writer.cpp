#include "grammar/writer.hpp"

namespace rave::grammar {
namespace {

std::string node_token(const Node& node, bool with_attributes) {
  std::string token = node.label;
  if (!with_attributes || node.attributes.empty()) return token;
  token += '[';
  for (std::size_t i = 0; i < node.attributes.size(); ++i) {
    if (i > 0) token += ' ';
    token += node.attributes[i].name + '=' + node.attributes[i].value;
  }
  return token + ']';
}

void serialize(const Tree& tree, NodeId node, bool full, std::vector<std::string>& out) {
  if (!full && tree[node].level == Level::kEntity) return;
  out.push_back(node_token(tree[node], full));
  for (NodeId child : children(tree, node)) serialize(tree, child, full, out);
  out.emplace_back(kEndToken);
}

}  // namespace

std::vector<std::string> sentence_tokens(const Tree& tree) {
  std::vector<std::string> out;
  if (boost::num_vertices(tree) > 0) serialize(tree, root(tree), true, out);
  return out;
}

std::string write_sentence(const Tree& tree) {
  std::string text;
  for (const auto& token : sentence_tokens(tree)) {
    if (!text.empty()) text += ' ';
    text += token;
  }
  return text;
}

std::vector<std::string> structure_tokens(const Tree& tree) {
  std::vector<std::string> out;
  if (boost::num_vertices(tree) > 0) serialize(tree, root(tree), false, out);
  return out;
}

std::array<std::uint8_t, 21> meta_structure(const Tree& tree) {
  std::array<std::uint8_t, 21> bits{};
  for (auto [it, end] = boost::vertices(tree); it != end; ++it)
    if (auto index = meta_structure_index(tree[*it].label)) bits[static_cast<std::size_t>(*index)] = 1;
  return bits;
}

}  // namespace rave::grammar
