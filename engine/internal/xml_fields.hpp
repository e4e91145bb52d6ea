#pragma once
// Field readers of the problem XML parser (engine/xml_read.cpp): required children and
// attributes, strict integers and levels, JSON slot lists, rules and I-RAVEN modifications. Each
// failure throws InputError(file, "<element path>[@attribute]", message).
//
//   const XmlContext x{"a.xml"};
//   int type = x.level(entity, "Type", "Data/Panels/Panel[1]/.../Entity[1]", 1, 5);
#include <pugixml.hpp>

#include <array>
#include <string>
#include <vector>

#include "engine/configuration.hpp"
#include "engine/problem.hpp"

namespace rave::engine::internal {

/// The file being read and the helpers that name places in it.
struct XmlContext {
  std::string file;

  [[noreturn]] void fail(const std::string& place, const std::string& message) const;
  /// "base[i+1]": element paths count from 1.
  std::string indexed(const std::string& base, std::size_t i) const;
  /// The single child `name`; throws when missing or repeated.
  pugi::xml_node child(pugi::xml_node node, const char* name, const std::string& path) const;
  /// All children named `name`, in document order.
  std::vector<pugi::xml_node> children(pugi::xml_node node, const char* name) const;
  /// A required attribute's text.
  std::string text(pugi::xml_node node, const char* attr, const std::string& path) const;
  /// A required attribute holding a decimal integer.
  long long integer(pugi::xml_node node, const char* attr, const std::string& path) const;
  /// A required integer attribute within [lo, hi].
  int level(pugi::xml_node node, const char* attr, const std::string& path, int lo, int hi) const;
  /// The index of the layout slot an Entity's `bbox` names.
  int slot_of(pugi::xml_node entity, const LayoutSpec& layout, const std::string& path) const;
  /// Checks that a Layout's `Position` lists exactly the layout's slots.
  void check_positions(pugi::xml_node layout, const LayoutSpec& spec, const std::string& path) const;
  /// Data/Rules: one Rule_Group per component, four rules each (values unknown).
  std::vector<RuleGroup> rule_groups(pugi::xml_node rules, const Configuration& config) const;
  /// Data/Modified_attributes: the modifications of the 8 candidates.
  std::array<std::vector<Modification>, 8> modifications(pugi::xml_node node, const Configuration& config) const;
};

}  // namespace rave::engine::internal
