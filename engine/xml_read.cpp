// read_problem_xml / parse_problem_xml (engine/xml_io.hpp) on pugixml. Attribute order is never
// relied on (Python 2 wrote them sorted, Python 3 in insertion order). Every failure throws
// InputError with `line:col` (XML syntax) or an element path such as
// `Data/Panels/Panel[4]/Struct/Component[2]/Layout/Entity[1]@Type` (1-based indices).
#include <pugixml.hpp>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/internal/xml_fields.hpp"
#include "engine/xml_io.hpp"

namespace rave::engine {
namespace {

using internal::XmlContext;

std::string line_col(std::string_view text, std::ptrdiff_t offset) {
  const std::size_t end = std::min(text.size(), static_cast<std::size_t>(std::max<std::ptrdiff_t>(offset, 0)));
  std::size_t line = 1, line_start = 0;
  for (std::size_t i = 0; i < end; ++i)
    if (text[i] == '\n') ++line, line_start = i + 1;
  return std::to_string(line) + ":" + std::to_string(end - line_start + 1);
}

// The configuration a panel's Struct describes (structure, component and layout names).
ConfigId match_configuration(const XmlContext& x, pugi::xml_node structure, const std::string& path) {
  const std::string name = x.text(structure, "name", path);
  std::vector<pugi::xml_node> components = x.children(structure, "Component");
  bool structure_known = false;
  for (const Configuration& c : all_configurations()) {
    if (c.structure != name) continue;
    structure_known = true;
    if (components.size() != c.components.size())
      x.fail(path, "expected " + std::to_string(c.components.size()) + " Component elements for " + name +
                       ", found " + std::to_string(components.size()));
    bool match = true;
    for (std::size_t k = 0; k < components.size() && match; ++k) {
      const std::string comp_path = x.indexed(path + "/Component", k);
      match = x.text(components[k], "name", comp_path) == c.components[k].name &&
              x.text(x.child(components[k], "Layout", comp_path), "name", comp_path + "/Layout") ==
                  c.components[k].layout.name;
    }
    if (match) return c.id;
  }
  if (!structure_known) x.fail(path + "@name", "unknown Struct name '" + name + "'");
  x.fail(path, "Component and Layout names match no configuration of Struct " + name);
}

Entity read_entity(const XmlContext& x, pugi::xml_node node, const LayoutSpec& layout, const std::string& path) {
  Entity e;
  e.slot = x.slot_of(node, layout, path);
  e.type = x.level(node, "Type", path, 1, 5);
  e.size = x.level(node, "Size", path, 0, 5);
  e.color = x.level(node, "Color", path, 0, 9);
  e.angle = x.level(node, "Angle", path, 0, 7);
  return e;
}

ComponentPanel read_component(const XmlContext& x, pugi::xml_node node, const ComponentSpec& spec,
                              std::size_t index, const std::string& path) {
  if (x.integer(node, "id", path) != static_cast<long long>(index))
    x.fail(path + "@id", "expected id " + std::to_string(index));
  const std::string layout_path = path + "/Layout";
  pugi::xml_node layout = x.child(node, "Layout", path);
  x.check_positions(layout, spec.layout, layout_path);
  ComponentPanel comp;
  comp.uniformity = x.level(layout, "Uniformity", layout_path, 0, 3);
  const int number = x.level(layout, "Number", layout_path, spec.layout.number.min, spec.layout.number.max);
  const auto entities = x.children(layout, "Entity");
  for (std::size_t i = 0; i < entities.size(); ++i) {
    const std::string entity_path = x.indexed(layout_path + "/Entity", i);
    comp.entities.push_back(read_entity(x, entities[i], spec.layout, entity_path));
    for (std::size_t j = 0; j < i; ++j)
      if (comp.entities[j].slot == comp.entities.back().slot) x.fail(entity_path + "@bbox", "slot used twice in one layout");
  }
  if (static_cast<int>(entities.size()) != number + 1)
    x.fail(layout_path + "@Number", "Number " + std::to_string(number) + " means " + std::to_string(number + 1) +
                                        " entities, found " + std::to_string(entities.size()));
  return comp;
}

Panel read_panel(const XmlContext& x, pugi::xml_node node, std::optional<ConfigId>& config, const std::string& path) {
  const std::string struct_path = path + "/Struct";
  pugi::xml_node structure = x.child(node, "Struct", path);
  const ConfigId id = match_configuration(x, structure, struct_path);
  if (config && *config != id)
    x.fail(struct_path, "configuration " + std::string(configuration(id).folder) + " differs from Panel[1]'s " +
                            std::string(configuration(*config).folder));
  config = id;
  const auto components = x.children(structure, "Component");
  Panel panel;
  for (std::size_t k = 0; k < components.size(); ++k)
    panel.components.push_back(read_component(x, components[k], configuration(id).components[k], k,
                                              x.indexed(struct_path + "/Component", k)));
  return panel;
}

}  // namespace

Problem parse_problem_xml(std::string_view text, const std::string& file_name) {
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_utf8);
  if (!parsed) throw InputError(file_name, line_col(text, parsed.offset), std::string("XML syntax: ") + parsed.description());
  const XmlContext x{file_name};
  pugi::xml_node data = doc.document_element();
  if (std::string_view(data.name()) != "Data") x.fail(data.name(), "root element must be Data");
  const auto panels = x.children(x.child(data, "Panels", "Data"), "Panel");
  if (panels.size() != 16) x.fail("Data/Panels", "expected 16 Panel elements, found " + std::to_string(panels.size()));
  Problem problem;
  std::optional<ConfigId> config;
  for (std::size_t i = 0; i < 16; ++i)
    problem.panel(static_cast<int>(i)) = read_panel(x, panels[i], config, x.indexed("Data/Panels/Panel", i));
  problem.config = *config;
  problem.rules = x.rule_groups(x.child(data, "Rules", "Data"), configuration(*config));
  if (pugi::xml_node modified = data.child("Modified_attributes"))
    problem.modified = x.modifications(modified, configuration(*config));
  return problem;
}

Problem read_problem_xml(const std::filesystem::path& path) {
  return parse_problem_xml(read_file(path), path.string());
}

}  // namespace rave::engine
