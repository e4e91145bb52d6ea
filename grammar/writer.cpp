#include "grammar/writer.hpp"

namespace rave::grammar {
namespace {

void append_token(const Node& node, bool with_attributes, std::string& out) {
  out += node.label;
  if (!with_attributes || node.attributes.empty()) return;
  out += '[';
  for (std::size_t i = 0; i < node.attributes.size(); ++i) {
    if (i > 0) out += ' ';
    out.append(node.attributes[i].name).append(1, '=').append(node.attributes[i].value);
  }
  out += ']';
}

std::string node_token(const Node& node, bool with_attributes) {
  std::string token;
  append_token(node, with_attributes, token);
  return token;
}

void serialize(const Tree& tree, NodeId node, bool full, std::vector<std::string>& out) {
  if (!full && tree[node].level == Level::kEntity) return;
  out.push_back(node_token(tree[node], full));
  for (auto [it, end] = boost::out_edges(node, tree); it != end; ++it)
    serialize(tree, boost::target(*it, tree), full, out);
  out.emplace_back(kEndToken);
}

void write_node(const Tree& tree, NodeId node, std::string& out) {
  if (!out.empty()) out += ' ';
  append_token(tree[node], true, out);
  for (auto [it, end] = boost::out_edges(node, tree); it != end; ++it)
    write_node(tree, boost::target(*it, tree), out);
  out.append(" /");
}

void indent_node(const Tree& tree, NodeId node, int depth, std::string& out) {
  out.append(static_cast<std::size_t>(2 * depth), ' ');
  append_token(tree[node], true, out);
  out += '\n';
  for (auto [it, end] = boost::out_edges(node, tree); it != end; ++it)
    indent_node(tree, boost::target(*it, tree), depth + 1, out);
}

}  // namespace

std::vector<std::string> sentence_tokens(const Tree& tree) {
  std::vector<std::string> out;
  if (boost::num_vertices(tree) > 0) serialize(tree, root(tree), true, out);
  return out;
}

std::string write_sentence(const Tree& tree) {
  std::string text;
  if (boost::num_vertices(tree) > 0) write_node(tree, root(tree), text);
  return text;
}

std::string write_indented(const Tree& tree) {
  std::string text;
  if (boost::num_vertices(tree) > 0) indent_node(tree, root(tree), 0, text);
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
    if (auto index = meta_structure_index(tree[*it].label))
      bits[static_cast<std::size_t>(*index)] = 1;
  return bits;
}

}  // namespace rave::grammar
