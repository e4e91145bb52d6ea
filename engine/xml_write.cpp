// write_problem_xml (engine/xml_io.hpp): the bytes of serialize.py's dom_problem as Python 3's
// ElementTree.tostring writes them (spec/raven.md 11.3-11.5, spec/answer-sets.md 3.6).
#include <cmath>

#include "common/error.hpp"
#include "common/pyformat.hpp"
#include "engine/internal/entity_template.hpp"
#include "engine/xml_io.hpp"

namespace rave::engine {
namespace {

// ElementTree's _escape_attrib (Python 3.11).
void append_escaped(std::string& out, std::string_view text) {
  for (char c : text) switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\r': out += "&#13;"; break;
      case '\n': out += "&#10;"; break;
      case '\t': out += "&#09;"; break;
      default: out += c;
    }
}

// An element writer: attributes in insertion order, `<X a="1" />` when it gets no children.
class Element {
 public:
  Element(std::string& out, std::string_view tag) : out_(out), tag_(tag) {
    out_ += '<';
    out_ += tag;
  }
  Element& attr(std::string_view name, std::string_view value) {
    out_ += ' ';
    out_ += name;
    out_ += "=\"";
    append_escaped(out_, value);
    out_ += '"';
    return *this;
  }
  Element& attr(std::string_view name, int value) { return attr(name, std::to_string(value)); }
  /// Call before the first child.
  void open() {
    out_ += '>';
    open_ = true;
  }
  ~Element() {
    if (!open_) {
      out_ += " />";
      return;
    }
    out_ += "</";
    out_ += tag_;
    out_ += '>';
  }
  Element(const Element&) = delete;
  Element& operator=(const Element&) = delete;

 private:
  std::string& out_;
  std::string_view tag_;
  bool open_ = false;
};

// json.dumps of a slot tuple of the original's const tables: integral numbers there are ints.
void append_slot_json(std::string& out, const Slot& s) {
  out += '[';
  const double values[] = {s.y, s.x, s.h, s.w};
  for (int i = 0; i < 4; ++i) {
    if (i > 0) out += ", ";
    const double v = values[i];
    if (v == std::floor(v) && std::fabs(v) < 1e15)
      out += std::to_string(static_cast<long long>(v));
    else
      append_py_float(out, v);
  }
  out += ']';
}

std::string slot_json(const Slot& s) {
  std::string out;
  append_slot_json(out, s);
  return out;
}

std::string positions_json(const LayoutSpec& layout) {
  std::string out = "[";
  for (std::size_t i = 0; i < layout.slots.size(); ++i) {
    if (i > 0) out += ", ";
    append_slot_json(out, layout.slots[i]);
  }
  return out + "]";
}

void write_entity(std::string& out, ConfigId config, int component, const LayoutSpec& layout, const Entity& e) {
  RAVE_CHECK(e.type != 0, "entities of Type none are never written");
  const auto& t = internal::entity_template(config, component, e);
  Element(out, "Entity")
      .attr("bbox", slot_json(layout.slots.at(static_cast<std::size_t>(e.slot))))
      .attr("real_bbox", t.real_bbox_json)
      .attr("mask", t.mask_rle)
      .attr("Type", e.type)
      .attr("Size", e.size)
      .attr("Color", e.color)
      .attr("Angle", e.angle);
}

void write_panel(std::string& out, const Configuration& c, const Panel& panel) {
  RAVE_CHECK(panel.components.size() == c.components.size(), "panel does not fit its configuration");
  Element p(out, "Panel");
  p.open();
  Element s(out, "Struct");
  s.attr("name", c.structure).open();
  for (std::size_t k = 0; k < c.components.size(); ++k) {
    const ComponentSpec& spec = c.components[k];
    const ComponentPanel& comp = panel.components[k];
    Element component(out, "Component");
    component.attr("id", static_cast<int>(k)).attr("name", spec.name).open();
    Element layout(out, "Layout");
    layout.attr("name", spec.layout.name)
        .attr("Number", comp.number_level())
        .attr("Position", positions_json(spec.layout))
        .attr("Uniformity", comp.uniformity);
    if (!comp.entities.empty()) layout.open();
    for (const Entity& e : comp.entities) write_entity(out, c.id, static_cast<int>(k), spec.layout, e);
  }
}

void write_rules(std::string& out, const std::vector<RuleGroup>& groups) {
  Element rules(out, "Rules");
  if (!groups.empty()) rules.open();
  for (std::size_t g = 0; g < groups.size(); ++g) {
    Element group(out, "Rule_Group");
    group.attr("id", static_cast<int>(g)).open();
    for (const Rule& r : groups[g].rules)
      Element(out, "Rule").attr("name", rule_name_text(r.name)).attr("attr", rule_attr_text(r.attr));
  }
}

void write_modified(std::string& out, const std::array<std::vector<Modification>, 8>& modified) {
  Element all(out, "Modified_attributes");
  all.open();
  for (int i = 0; i < 8; ++i) {
    Element candidate(out, "Candidate");
    candidate.attr("id", i);
    const auto& mods = modified[static_cast<std::size_t>(i)];
    if (!mods.empty()) candidate.open();
    for (const Modification& m : mods)
      Element(out, "Attribute").attr("component_id", m.component).attr("name", attr_name(m.attr));
  }
}

}  // namespace

std::string write_problem_xml(const Problem& problem) {
  const Configuration& c = configuration(problem.config);
  RAVE_CHECK(problem.rules.size() == c.components.size(), "one rule group per component");
  std::string out;
  out.reserve(16384 + 32768 * c.components.size());
  {
    Element data(out, "Data");
    data.open();
    {
      Element panels(out, "Panels");
      panels.open();
      for (int i = 0; i < 16; ++i) write_panel(out, c, problem.panel(i));
    }
    write_rules(out, problem.rules);
    if (problem.modified) write_modified(out, *problem.modified);
  }
  return out;
}

}  // namespace rave::engine
