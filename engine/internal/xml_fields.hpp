#pragma once
// Field readers of the problem XML parser (engine/xml_read.cpp): required children and
// attributes, strict integers and levels, JSON slot lists, rules and I-RAVEN modifications. Each
// failure throws InputError(file, "<element path>[@attribute]", message). Element paths are
// chains of Place values on the stack and become text only when an error is thrown.
//
//   const XmlContext x{"a.xml"};
//   const Place data{nullptr, "Data"}, panels{&data, "Panels"}, panel{&panels, "Panel", 4};
//   int type = x.level(entity_node, "Type", entity_place, 1, 5);   // ...Entity[1]@Type on error
#include <pugixml.hpp>

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "engine/configuration.hpp"
#include "engine/problem.hpp"

namespace rave::engine::internal {

/// json.dumps of a slot as the original wrote it: numbers integral in its tables print as ints
/// (`[0.5, 0.5, 1, 1]`), the others as Python float reprs.
std::string slot_json(const Slot& slot);
/// json.dumps of a layout's whole slot table (the Layout `Position` attribute).
std::string positions_json(const LayoutSpec& layout);

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
  std::string file;

  [[noreturn]] void fail(const Place& place, const std::string& message) const;
  [[noreturn]] void fail(const Place& place, const char* attr, const std::string& message) const;
  /// The single child `name`; throws when missing or repeated.
  pugi::xml_node child(pugi::xml_node node, const char* name, const Place& place) const;
  /// All children named `name`, in document order.
  std::vector<pugi::xml_node> children(pugi::xml_node node, const char* name) const;
  /// A required attribute's text (valid while the document lives).
  std::string_view text(pugi::xml_node node, const char* attr, const Place& place) const;
  /// A required attribute holding a decimal integer.
  long long integer(pugi::xml_node node, const char* attr, const Place& place) const;
  /// A required integer attribute within [lo, hi].
  int level(pugi::xml_node node, const char* attr, const Place& place, int lo, int hi) const;
  /// The index of the slot of `layout` an Entity's `bbox` names.
  int slot_of(pugi::xml_node entity, const LayoutSpec& layout, const Place& place) const;
  /// Checks that a Layout's `Position` lists exactly the layout's slots.
  void check_positions(pugi::xml_node layout, const LayoutSpec& spec, const Place& place) const;
  /// Data/Rules: one Rule_Group per component, four rules each (values unknown).
  std::vector<RuleGroup> rule_groups(pugi::xml_node rules, const Configuration& config, const Place& place) const;
  /// Data/Modified_attributes: the modifications of the 8 candidates.
  std::array<std::vector<Modification>, 8> modifications(pugi::xml_node node, const Configuration& config,
                                                         const Place& place) const;
};

}  // namespace rave::engine::internal
