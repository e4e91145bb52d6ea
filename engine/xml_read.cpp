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

using internal::Place;
using internal::XmlContext;

std::string line_col(std::string_view text, std::ptrdiff_t offset) {
  const std::size_t end = std::min(text.size(), static_cast<std::size_t>(std::max<std::ptrdiff_t>(offset, 0)));
  std::size_t line = 1, line_start = 0;
  for (std::size_t i = 0; i < end; ++i)
    if (text[i] == '\n') ++line, line_start = i + 1;
  return std::to_string(line) + ":" + std::to_string(end - line_start + 1);
}

// The configuration a panel's Struct describes (structure, component and layout names).
ConfigId match_configuration(const XmlContext& x, pugi::xml_node structure, const Place& place) {
  const std::string_view name = x.text(structure, "name", place);
  const std::vector<pugi::xml_node> components = x.children(structure, "Component");
  bool structure_known = false;
  for (const Configuration& c : all_configurations()) {
    if (c.structure != name) continue;
    structure_known = true;
    if (components.size() != c.components.size())
      x.fail(place, "expected " + std::to_string(c.components.size()) + " Component elements for " + std::string(name) +
                        ", found " + std::to_string(components.size()));
    bool match = true;
    for (std::size_t k = 0; k < components.size() && match; ++k) {
      const Place component{&place, "Component", k + 1}, layout{&component, "Layout"};
      match = x.text(components[k], "name", component) == c.components[k].name &&
              x.text(x.child(components[k], "Layout", component), "name", layout) == c.components[k].layout.name;
    }
    if (match) return c.id;
  }
  if (!structure_known) x.fail(place, "name", "unknown Struct name '" + std::string(name) + "'");
  x.fail(place, "Component and Layout names match no configuration of Struct " + std::string(name));
}

Entity read_entity(const XmlContext& x, pugi::xml_node node, const LayoutSpec& layout, const Place& place) {
  Entity e;
  e.slot = x.slot_of(node, layout, place);
  e.type = x.level(node, "Type", place, 1, 5);
  e.size = x.level(node, "Size", place, 0, 5);
  e.color = x.level(node, "Color", place, 0, 9);
  e.angle = x.level(node, "Angle", place, 0, 7);
  return e;
}

ComponentPanel read_component(const XmlContext& x, pugi::xml_node node, const ComponentSpec& spec, std::size_t index,
                              const Place& place) {
  if (x.integer(node, "id", place) != static_cast<long long>(index)) x.fail(place, "id", "expected id " + std::to_string(index));
  const Place layout_place{&place, "Layout"};
  const pugi::xml_node layout = x.child(node, "Layout", place);
  x.check_positions(layout, spec.layout, layout_place);
  ComponentPanel comp;
  comp.uniformity = x.level(layout, "Uniformity", layout_place, 0, 3);
  const int number = x.level(layout, "Number", layout_place, spec.layout.number.min, spec.layout.number.max);
  std::size_t i = 0;
  for (pugi::xml_node entity = layout.child("Entity"); entity; entity = entity.next_sibling("Entity"), ++i) {
    const Place entity_place{&layout_place, "Entity", i + 1};
    comp.entities.push_back(read_entity(x, entity, spec.layout, entity_place));
    for (std::size_t j = 0; j < i; ++j)
      if (comp.entities[j].slot == comp.entities.back().slot) x.fail(entity_place, "bbox", "slot used twice in one layout");
  }
  if (static_cast<int>(i) != number + 1)
    x.fail(layout_place, "Number",
           "Number " + std::to_string(number) + " means " + std::to_string(number + 1) + " entities, found " + std::to_string(i));
  return comp;
}

Panel read_panel(const XmlContext& x, pugi::xml_node node, std::optional<ConfigId>& config, const Place& place) {
  const Place struct_place{&place, "Struct"};
  const pugi::xml_node structure = x.child(node, "Struct", place);
  const ConfigId id = match_configuration(x, structure, struct_place);
  if (config && *config != id)
    x.fail(struct_place, "configuration " + std::string(configuration(id).folder) + " differs from Panel[1]'s " +
                             std::string(configuration(*config).folder));
  config = id;
  Panel panel;
  std::size_t k = 0;
  for (pugi::xml_node c = structure.child("Component"); c; c = c.next_sibling("Component"), ++k)
    panel.components.push_back(
        read_component(x, c, configuration(id).components[k], k, Place{&struct_place, "Component", k + 1}));
  return panel;
}

}  // namespace

Problem parse_problem_xml(std::string_view text, const std::string& file_name) {
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_utf8);
  if (!parsed) throw InputError(file_name, line_col(text, parsed.offset), std::string("XML syntax: ") + parsed.description());
  const XmlContext x{file_name};
  const pugi::xml_node data = doc.document_element();
  const Place data_place{nullptr, "Data"}, panels_place{&data_place, "Panels"};
  if (std::string_view(data.name()) != "Data") x.fail(Place{nullptr, data.name()}, "root element must be Data");
  const auto panels = x.children(x.child(data, "Panels", data_place), "Panel");
  if (panels.size() != 16) x.fail(panels_place, "expected 16 Panel elements, found " + std::to_string(panels.size()));
  Problem problem;
  std::optional<ConfigId> config;
  for (std::size_t i = 0; i < 16; ++i)
    problem.panel(static_cast<int>(i)) = read_panel(x, panels[i], config, Place{&panels_place, "Panel", i + 1});
  problem.config = *config;
  problem.rules = x.rule_groups(x.child(data, "Rules", data_place), configuration(*config), Place{&data_place, "Rules"});
  if (const pugi::xml_node modified = data.child("Modified_attributes"))
    problem.modified = x.modifications(modified, configuration(*config), Place{&data_place, "Modified_attributes"});
  return problem;
}

Problem read_problem_xml(const std::filesystem::path& path) {
  return parse_problem_xml(read_file(path), path.string());
}

}  // namespace rave::engine
