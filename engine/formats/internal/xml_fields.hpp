#pragma once
// Field readers of the problem XML parser (engine/formats/xml_read.cpp): required children and
// attributes, strict integers and levels, JSON slot lists, rules and I-RAVEN modifications. Each
// failure throws InputError(file, "<element path>[@attribute]", message). Element paths are
// chains of Place values on the stack and become text only when an error is thrown.
//
//   const XmlContext x{"a.xml"};
//   const Place data{nullptr, "Data"}, panels{&data, "Panels"}, panel{&panels, "Panel", 4};
//   static const AttributeNames kNames{"bbox", "Type"};
//   std::array<const char*, 2> v;
//   find_attributes(entity_node, kNames, v);                        // one pass over the attributes
//   int type = x.level(x.required(v[1], "Type", place), "Type", place, 1, 5);  // ...@Type: error
#include <pugixml.hpp>

#include <array>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"

namespace rave::engine::internal {

/// The reader walks pugixml's nodes (pugixml is the one XML parser).
using XmlNode = pugi::xml_node;
using XmlAttribute = pugi::xml_attribute;

/// pugixml's options wherever the reader parses (parse_fragment keeps text outside the root
/// element, so that check_xml_tree can refuse it, and several root elements).
inline constexpr unsigned kPugixmlParseOptions = pugi::parse_default | pugi::parse_fragment;

/// json.dumps of a slot as the original wrote it: numbers integral in its tables print as ints
/// (`[0.5, 0.5, 1, 1]`), the others as Python float reprs.
std::string slot_json(const Slot& slot);
/// json.dumps of a layout's whole slot table (the Layout `Position` attribute).
std::string positions_json(const LayoutSpec& layout);

/// The usual spellings of one layout's `bbox` and `Position` values, so that the common case is
/// accepted by a string compare.
struct LayoutText {
  const LayoutSpec* layout = nullptr;
  std::vector<std::string> slots;  ///< slot_json of each slot, in slot order
  std::string positions;           ///< positions_json
};
/// The texts of `layout`, which must be one of the configuration tables' layouts.
const LayoutText& layout_text(const LayoutSpec& layout);

/// A few attribute names looked up together (find_attributes). Their first characters differ
/// (checked), so an attribute's name is matched by one table lookup and one string compare.
class AttributeNames {
 public:
  AttributeNames(std::initializer_list<const char*> names);
  std::size_t size() const { return size_; }
  const char* operator[](std::size_t k) const { return names_[k]; }
  /// k when `name` is names[k], else -1.
  int index_of(const char* name) const;

 private:
  std::array<const char*, 8> names_{};
  std::size_t size_ = 0;
  std::array<std::int8_t, 256> by_first_{};  // first character -> index, -1 for none
};

/// Values of the attributes `names` of `node`, in one pass over its attributes: values[k] is the
/// first attribute called names[k], nullptr when there is none (as node.attribute(names[k])).
void find_attributes(XmlNode node, const AttributeNames& names, std::span<const char*> values);

/// One step of an element path: `name`, or `name[index]` when index > 0 (1-based).
struct Place {
  const Place* parent = nullptr;
  std::string_view name;
  std::size_t index = 0;
  /// "Data/Panels/Panel[4]/Struct".
  std::string str() const;
};

/// The file being read and the helpers that name places in it.
struct XmlContext {
  std::string_view file;

  [[noreturn]] void fail(const Place& place, const std::string& message) const;
  [[noreturn]] void fail(const Place& place, const char* attr, const std::string& message) const;
  /// The single child `name`; throws when missing or repeated.
  XmlNode child(XmlNode node, const char* name, const Place& place) const;
  /// All children named `name`, in document order.
  std::vector<XmlNode> children(XmlNode node, const char* name) const;
  /// A required attribute's text (valid while the document lives).
  std::string_view text(XmlNode node, const char* attr, const Place& place) const;
  /// `value` (an attribute `attr` found by find_attributes); throws when it is missing (nullptr).
  std::string_view required(const char* value, const char* attr, const Place& place) const;
  /// A required attribute holding a decimal integer.
  long long integer(XmlNode node, const char* attr, const Place& place) const;
  /// The decimal integer `value` of attribute `attr`.
  long long integer(std::string_view value, const char* attr, const Place& place) const;
  /// A required integer attribute within [lo, hi].
  int level(XmlNode node, const char* attr, const Place& place, int lo, int hi) const;
  /// The integer `value` of attribute `attr`, within [lo, hi].
  int level(std::string_view value, const char* attr, const Place& place, int lo, int hi) const;
  /// The index of the slot of `layout` an Entity's `bbox` value names.
  int slot_of(std::string_view bbox, const LayoutText& layout, const Place& place) const;
  /// Checks that a Layout's `Position` value lists exactly the layout's slots.
  void check_positions(std::string_view position, const LayoutText& layout,
                       const Place& place) const;
  /// Data/Rules: one Rule_Group per component, four rules each (values unknown).
  std::vector<RuleGroup> rule_groups(XmlNode rules, const Configuration& config,
                                     const Place& place) const;
  /// Data/Modified_attributes: the modifications of the 8 candidates.
  std::array<std::vector<Modification>, kCandidates> modifications(XmlNode node,
                                                                   const Configuration& config,
                                                                   const Place& place) const;
};

/// Throws InputError(file, line:col) at the first byte that is not valid UTF-8 or is a character
/// XML does not allow (control characters other than tab, LF, CR; U+FFFE, U+FFFF).
void check_xml_characters(std::string_view text, const std::string& file);
/// Throws InputError(file, line:col) when `doc` (parsed in place from `text`, whose first byte is
/// at `base`, with pugi::parse_fragment) has no root element or several, text outside the root, or
/// an element with an attribute given twice.
void check_xml_tree(const pugi::xml_document& doc, std::string_view text, const char* base,
                    const std::string& file);

/// parse_problem_xml without cutting `mask` values out first (engine/formats/xml_read.cpp): the
/// reference behaviour the fast path must reproduce exactly, for tests.
Problem parse_problem_xml_uncut(std::string_view text, const std::string& file_name);
/// The text pugixml parses on the fast path: each ` mask="..."` value emptied; `cuts` receives the
/// offset of each emptied value in `out`. Nothing is cut from a text holding a NUL.
void cut_mask_values(std::string_view text, std::string& out, std::vector<std::size_t>& cuts);

}  // namespace rave::engine::internal
