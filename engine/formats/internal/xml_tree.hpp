#pragma once
// The elements and attributes of a parsed problem XML, flat, as the problem reader walks them
// (engine/formats/xml_read.cpp). Two parsers fill it: scan_xml, a scanner of the plain subset that
// problem files are written in (elements, quoted attribute values without references, blanks
// between tags), which declines anything else; and tree_of, which copies what pugixml parsed (any
// XML: references, comments, CDATA, text). Names and values are NUL-terminated texts inside the
// parsed buffer, as pugixml's are, so both trees hand the reader the same pointers' contents.
// The accessors mirror pugixml's (child by name, next sibling by name, attribute by name with ""
// when absent), inline: no call per step of the walk.
//
//   XmlTree tree;
//   if (!scan_xml(text, tree)) tree_of(pugi_document, tree);   // `text` is modified in place
//   for (XmlNode p = tree.root().child("Panels").child("Panel"); p; p = p.next_sibling("Panel"))
//     use(p.attribute("id").value());
#include <pugixml.hpp>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace rave::engine::internal {

class XmlTree;

/// pugixml's options wherever the reader parses (parse_fragment keeps text outside the root
/// element, so that check_xml_tree can refuse it, and several root elements).
inline constexpr unsigned kPugixmlParseOptions = pugi::parse_default | pugi::parse_fragment;

struct XmlAttributeData {
  const char* name;
  const char* value;
};

struct XmlElementData {
  const char* name;
  std::uint32_t first_child, next_sibling;  ///< element indices; XmlTree::kNone when none
  std::uint32_t first_attribute, attributes_end;
};

/// An attribute of an element, or none (false; name and value then "").
class XmlAttribute {
 public:
  XmlAttribute() = default;
  XmlAttribute(const XmlTree* tree, std::uint32_t index, std::uint32_t end)
      : tree_(tree), index_(index), end_(end) {}
  explicit operator bool() const { return tree_ != nullptr; }
  inline const char* name() const;
  inline const char* value() const;
  XmlAttribute next_attribute() const {
    return index_ + 1 < end_ ? XmlAttribute(tree_, index_ + 1, end_) : XmlAttribute();
  }

 private:
  const XmlTree* tree_ = nullptr;
  std::uint32_t index_ = 0, end_ = 0;
};

/// An element, or none (false).
class XmlNode {
 public:
  XmlNode() = default;
  XmlNode(const XmlTree* tree, std::uint32_t index) : tree_(tree), index_(index) {}
  explicit operator bool() const { return tree_ != nullptr; }
  inline const char* name() const;
  inline XmlNode first_child() const;
  inline XmlNode next_sibling() const;
  /// The first child element called `name`.
  inline XmlNode child(const char* name) const;
  /// The next sibling element called `name`.
  inline XmlNode next_sibling(const char* name) const;
  inline XmlAttribute first_attribute() const;
  /// The first attribute called `name`.
  inline XmlAttribute attribute(const char* name) const;

 private:
  inline XmlNode first_named(std::uint32_t from, const char* name) const;
  const XmlTree* tree_ = nullptr;
  std::uint32_t index_ = 0;
};

class XmlTree {
 public:
  static constexpr std::uint32_t kNone = 0xFFFFFFFF;
  /// The root element (the tree holds one), or none when empty.
  XmlNode root() const { return elements_.empty() ? XmlNode() : XmlNode(this, 0); }

  /// Building, in document order: an element and its attributes, then its children, then close.
  void clear();
  void open(const char* name);
  void add_attribute(const char* name, const char* value) {
    attributes_.push_back({name, value});
    elements_[open_.back()].attributes_end = static_cast<std::uint32_t>(attributes_.size());
  }
  void close();

 private:
  friend class XmlNode;
  friend class XmlAttribute;
  std::vector<XmlElementData> elements_;
  std::vector<XmlAttributeData> attributes_;
  std::vector<std::uint32_t> open_, last_child_;  // the open elements and their last children
};

/// Scans `text` (changed in place: NULs end names and values) into `tree` when it is in the plain
/// subset: an optional BOM-free `<?xml ...?>` declaration, one root element, names of ASCII
/// letters, digits and `_.:-`, attribute values quoted without `&`, `<` or control characters, no
/// attribute given twice, nothing but blanks between and around tags. Returns false otherwise (the
/// tree is then unspecified): the caller parses the text with pugixml instead, and gets the same
/// tree for any text this accepts.
bool scan_xml(std::string& text, XmlTree& tree);
/// The elements and attributes of a document pugixml parsed (its other nodes are not kept).
void tree_of(const pugi::xml_document& doc, XmlTree& tree);

/// For tests: the tree as text, an element a line ("  Panel id='3'", two blanks a level).
std::string describe(const XmlTree& tree);
/// For tests: what the reader's pugixml parse makes of `text` (parse_fragment, then the checks of
/// check_xml_tree), described, or nullopt when it refuses the text.
std::optional<std::string> describe_pugixml_parse(std::string text);

// Inline accessors.

const char* XmlAttribute::name() const { return tree_ ? tree_->attributes_[index_].name : ""; }
const char* XmlAttribute::value() const { return tree_ ? tree_->attributes_[index_].value : ""; }

const char* XmlNode::name() const { return tree_ ? tree_->elements_[index_].name : ""; }

XmlNode XmlNode::first_named(std::uint32_t from, const char* name) const {
  for (std::uint32_t i = from; i != XmlTree::kNone; i = tree_->elements_[i].next_sibling)
    if (std::strcmp(tree_->elements_[i].name, name) == 0) return XmlNode(tree_, i);
  return {};
}

XmlNode XmlNode::first_child() const {
  const std::uint32_t i = tree_ ? tree_->elements_[index_].first_child : XmlTree::kNone;
  return i == XmlTree::kNone ? XmlNode() : XmlNode(tree_, i);
}

XmlNode XmlNode::next_sibling() const {
  const std::uint32_t i = tree_ ? tree_->elements_[index_].next_sibling : XmlTree::kNone;
  return i == XmlTree::kNone ? XmlNode() : XmlNode(tree_, i);
}

XmlNode XmlNode::child(const char* name) const {
  return tree_ ? first_named(tree_->elements_[index_].first_child, name) : XmlNode();
}

XmlNode XmlNode::next_sibling(const char* name) const {
  return tree_ ? first_named(tree_->elements_[index_].next_sibling, name) : XmlNode();
}

XmlAttribute XmlNode::first_attribute() const {
  if (!tree_) return {};
  const XmlElementData& e = tree_->elements_[index_];
  return e.first_attribute < e.attributes_end
             ? XmlAttribute(tree_, e.first_attribute, e.attributes_end)
             : XmlAttribute();
}

XmlAttribute XmlNode::attribute(const char* name) const {
  for (XmlAttribute a = first_attribute(); a; a = a.next_attribute())
    if (std::strcmp(a.name(), name) == 0) return a;
  return {};
}

}  // namespace rave::engine::internal
