// A panel as an attributed A-SIG tree and back (engine/formats/asig_io.hpp): the configuration's
// structure tree (engine/model/structure.hpp) with Number/Uniformity on each Layout and one Entity
// per shape carrying slot/Type/Size/Color/Angle. Reading checks the tree against the configuration
// and the levels against the value tables (docs/format.md#configurations,
// docs/format.md#value-tables) with the ranges the XML reader accepts.
#include <charconv>
#include <optional>

#include "common/lines.hpp"
#include "common/text.hpp"
#include "engine/formats/asig_io.hpp"
#include "engine/formats/internal/asig_panel.hpp"
#include "engine/model/structure.hpp"
#include "grammar/parse.hpp"
#include "grammar/writer.hpp"

namespace rave::engine {
namespace {

using grammar::Level;
using grammar::NodeId;
using grammar::Tree;

// A value from the sentence for an error message: as it is, or quoted and cut when long.
std::string shown(const std::string& value) {
  return value.size() <= 40 ? printable(value) : quote_value(value, 40);
}

std::vector<NodeId> layouts_of(const Tree& tree) {
  std::vector<NodeId> out;
  for (const NodeId node : grammar::preorder(tree))
    if (tree[node].level == Level::kLayout) out.push_back(node);
  return out;
}

// Checks one parsed panel tree against its configuration; every failure names the byte offset (in
// the file text) of the node or attribute at fault.
class PanelReader {
 public:
  PanelReader(const Configuration& config, const Tree& tree, const grammar::SourceMap& where,
              std::string_view text, std::size_t offset, std::string_view file)
      : config_(config), tree_(tree), where_(where), text_(text), offset_(offset), file_(file) {}

  Panel read() const {
    const NodeId structure = only_child(grammar::root(tree_), config_.structure, "Structure");
    const auto components = grammar::children(tree_, structure);
    Panel panel;
    for (std::size_t k = 0; k < config_.components.size(); ++k) {
      if (k >= components.size())
        fail_node(structure, "expected " + count_text(config_.components.size(), "Component") +
                                 " under " + std::string(config_.structure) + ", got " +
                                 std::to_string(components.size()));
      const ComponentSpec& spec = config_.components[k];
      expect_label(components[k], spec.name, "Component");
      panel.components.push_back(
          read_layout(only_child(components[k], spec.layout.name, "Layout"), spec.layout));
    }
    if (components.size() > config_.components.size())
      fail_node(components[config_.components.size()],
                "expected " + count_text(config_.components.size(), "Component") + " under " +
                    std::string(config_.structure) + ", got " + std::to_string(components.size()));
    return panel;
  }

 private:
  [[noreturn]] void fail_at(std::size_t sentence_offset, const std::string& message) const {
    throw InputError(std::string(file_), line_col(text_, offset_ + sentence_offset), message);
  }
  [[noreturn]] void fail_node(NodeId node, const std::string& message) const {
    fail_at(where_.nodes[node], message);
  }
  [[noreturn]] void fail_attribute(NodeId node, std::size_t i, const std::string& message) const {
    fail_at(where_.attributes[node][i], message);
  }

  static std::string count_text(std::size_t n, std::string_view what) {
    return std::to_string(n) + " " + std::string(what) + (n == 1 ? "" : "s");
  }

  void expect_label(NodeId node, std::string_view name, std::string_view level) const {
    if (tree_[node].label != name)
      fail_node(node, "expected " + std::string(level) + " '" + std::string(name) + "' (" +
                          std::string(config_.folder) + "), got '" + tree_[node].label + "'");
  }

  // The single child of `parent`, which must be labelled `name`.
  NodeId only_child(NodeId parent, std::string_view name, std::string_view level) const {
    const auto kids = grammar::children(tree_, parent);
    const std::string expected = "expected one " + std::string(level) + " '" + std::string(name) +
                                 "' under " + tree_[parent].label;
    if (kids.empty()) fail_node(parent, expected + ", got none");
    if (kids.size() > 1) fail_node(kids[1], expected + ", got " + std::to_string(kids.size()));
    expect_label(kids[0], name, level);
    return kids[0];
  }

  // The level value of attribute i of `node`, within [lo, hi].
  int level(NodeId node, std::size_t i, int lo, int hi) const {
    const auto& attribute = tree_[node].attributes[i];
    int value = -1;
    const char* end = attribute.value.data() + attribute.value.size();
    const auto [ptr, ec] = std::from_chars(attribute.value.data(), end, value);
    if (ec != std::errc() || ptr != end || value < lo || value > hi)
      fail_attribute(node, i,
                     "expected " + attribute.name + " " + std::to_string(lo) + ".." +
                         std::to_string(hi) + ", got " + shown(attribute.value));
    return value;
  }

  Entity read_entity(NodeId node, const LayoutSpec& spec) const {
    std::array<std::optional<int>, 5> values;  // slot, Type, Size, Color, Angle
    // The layout's own ranges (docs/format.md, value tables: Out's Color is always 0, its
    // Size 3..5).
    const std::array<Range, 5> ranges{Range{0, static_cast<int>(spec.slots.size()) - 1}, spec.type,
                                      spec.size, spec.color, spec.angle};
    const auto& attributes = tree_[node].attributes;
    for (std::size_t i = 0; i < attributes.size(); ++i) {
      const auto& names = grammar::kEntityAttributeNames;
      const auto k = static_cast<std::size_t>(
          std::find(names.begin(), names.end(), attributes[i].name) - names.begin());
      values[k] = level(node, i, ranges[k].min, ranges[k].max);
    }
    for (std::size_t k = 0; k < values.size(); ++k)
      if (!values[k])
        fail_node(node, "expected " + std::string(grammar::kEntityAttributeNames[k]) +
                            " on Entity, got none");
    return Entity{.slot = *values[0],
                  .type = *values[1],
                  .size = *values[2],
                  .color = *values[3],
                  .angle = *values[4]};
  }

  ComponentPanel read_layout(NodeId node, const LayoutSpec& spec) const;

  const Configuration& config_;
  const Tree& tree_;
  const grammar::SourceMap& where_;
  std::string_view text_;
  std::size_t offset_;
  std::string_view file_;
};

// Entities first (their slots and count decide what Number and Position must say), then the
// Layout's own attributes.
ComponentPanel PanelReader::read_layout(NodeId node, const LayoutSpec& spec) const {
  ComponentPanel out;
  const auto entities = grammar::children(tree_, node);
  std::string slots;
  for (const NodeId entity : entities) {
    out.entities.push_back(read_entity(entity, spec));
    for (std::size_t j = 0; j + 1 < out.entities.size(); ++j)
      if (out.entities[j].slot == out.entities.back().slot)
        fail_node(entity, "expected each slot once in " + tree_[node].label + ", got slot " +
                              std::to_string(out.entities.back().slot) + " again");
    slots.append(slots.empty() ? "" : ",").append(std::to_string(out.entities.back().slot));
  }
  const int count = static_cast<int>(entities.size());
  if (count < spec.number.min + 1 || count > spec.number.max + 1)
    fail_node(node, "expected " + std::to_string(spec.number.min + 1) + ".." +
                        std::to_string(spec.number.max + 1) + " entities in " + tree_[node].label +
                        ", got " + std::to_string(count));
  bool has_uniformity = false;
  const auto& attributes = tree_[node].attributes;
  for (std::size_t i = 0; i < attributes.size(); ++i) {
    if (attributes[i].name == "Uniformity") {
      out.uniformity = level(node, i, kUniformityRange.min, kUniformityRange.max);
      has_uniformity = true;
    } else if (attributes[i].name == "Number" && level(node, i, 0, kMaxNumberLevel) != count - 1) {
      fail_attribute(node, i,
                     "expected Number=" + std::to_string(count - 1) + " (" + std::to_string(count) +
                         " entities), got Number=" + shown(attributes[i].value));
    } else if (attributes[i].name == "Position" && attributes[i].value != slots) {
      fail_attribute(node, i,
                     "expected Position=" + slots +
                         " (the entities' slots), got Position=" + shown(attributes[i].value));
    }
  }
  if (!has_uniformity)
    fail_node(node, "expected Uniformity on " + tree_[node].label + ", got none");
  return out;
}

}  // namespace

namespace internal {

Panel read_panel_sentence(ConfigId config, std::string_view text, std::size_t offset,
                          std::size_t length, std::string_view file) {
  grammar::SourceMap where;
  const Tree tree = [&] {  // initialized in place: adjacency_list has no move assignment
    try {
      return grammar::parse_sentence(text.substr(offset, length), file, where);
    } catch (const grammar::SyntaxError& e) {  // relocate from the sentence into the file
      throw grammar::syntax_error_at(text, offset + static_cast<std::size_t>(e.column() - 1), file,
                                     e.expected(), e.got());
    }
  }();
  return PanelReader(configuration(config), tree, where, text, offset, file).read();
}

}  // namespace internal

Tree panel_tree(ConfigId config, const Panel& panel) {
  Tree tree = structure_tree(config);
  const auto layouts = layouts_of(tree);
  RAVE_CHECK(panel.components.size() == layouts.size(),
             "one ComponentPanel per component of the configuration");
  for (std::size_t k = 0; k < layouts.size(); ++k) {
    const ComponentPanel& component = panel.components[k];
    auto& attributes = tree[layouts[k]].attributes;
    if (!component.entities.empty())
      attributes.push_back({"Number", std::to_string(component.number_level())});
    attributes.push_back({"Uniformity", std::to_string(component.uniformity)});
    for (const Entity& e : component.entities) {
      const NodeId node =
          grammar::add_child(tree, layouts[k], std::string(grammar::kEntityName), Level::kEntity);
      tree[node].attributes = {{"slot", std::to_string(e.slot)},
                               {"Type", std::to_string(e.type)},
                               {"Size", std::to_string(e.size)},
                               {"Color", std::to_string(e.color)},
                               {"Angle", std::to_string(e.angle)}};
    }
  }
  return tree;
}

std::string panel_sentence(ConfigId config, const Panel& panel) {
  return grammar::write_sentence(panel_tree(config, panel));
}

Panel parse_panel_sentence(ConfigId config, std::string_view sentence, std::string_view file_name) {
  return internal::read_panel_sentence(config, sentence, 0, sentence.size(), file_name);
}

}  // namespace rave::engine
