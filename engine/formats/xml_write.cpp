// write_problem_xml (engine/formats/xml_io.hpp): the bytes of serialize.py's dom_problem as Python
// 3's ElementTree.tostring writes them (docs/format.md#xml, #modified_attributes): attributes in
// insertion order, `<X a="1" />` for an element without children, _escape_attrib escaping.
// Everything that depends only on the configuration (tags, names, slot JSON) is formatted once
// per configuration; an entity then costs a handful of appends of cached text (its real_bbox and
// mask come from the entity template).
#include <initializer_list>
#include <span>

#include "common/error.hpp"
#include "engine/formats/internal/xml_fields.hpp"
#include "engine/formats/xml_io.hpp"

namespace rave::engine {
namespace {

// ElementTree's _escape_attrib (Python 3.11).
std::string escaped(std::string_view text) {
  std::string out;
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
  return out;
}

// The pieces joined (std::string's operator+ chains trip GCC 12's -Wrestrict).
std::string cat(std::initializer_list<std::string_view> pieces) {
  std::string out;
  for (std::string_view piece : pieces) out += piece;
  return out;
}

// ` name="value"`.
std::string attribute(std::string_view name, std::string_view value) {
  return cat({" ", name, "=\"", escaped(value), "\""});
}

// Fixed text around the levels of one component's Layout and Entities.
struct ComponentText {
  std::string layout_head;            // <Component ...><Layout name=".." Number="
  std::string layout_middle;          // " Position=".." Uniformity="
  std::vector<std::string> entities;  // per slot: <Entity bbox=".."
};

struct ConfigText {
  std::string panel_head;  // <Panel><Struct name="..">
  std::vector<ComponentText> components;
};

ConfigText build_text(const Configuration& c) {
  ConfigText t;
  t.panel_head = cat({"<Panel><Struct", attribute("name", c.structure), ">"});
  for (std::size_t k = 0; k < c.components.size(); ++k) {
    const ComponentSpec& spec = c.components[k];
    ComponentText ct;
    ct.layout_head =
        cat({"<Component", attribute("id", std::to_string(k)), attribute("name", spec.name),
             "><Layout", attribute("name", spec.layout.name), " Number=\""});
    ct.layout_middle =
        cat({"\"", attribute("Position", internal::positions_json(spec.layout)), " Uniformity=\""});
    for (const Slot& slot : spec.layout.slots)
      ct.entities.push_back(cat({"<Entity", attribute("bbox", internal::slot_json(slot))}));
    t.components.push_back(std::move(ct));
  }
  return t;
}

const ConfigText& config_text(ConfigId id) {
  static const std::vector<ConfigText> all = [] {
    std::vector<ConfigText> out;
    for (const Configuration& c : all_configurations()) out.push_back(build_text(c));
    return out;
  }();
  return all[static_cast<std::size_t>(config_index(id))];
}

void append_int(std::string& out, int v) {
  if (v >= 0 && v < 10)
    out += static_cast<char>('0' + v);
  else
    out += std::to_string(v);
}

struct Writer {
  std::string& out;
  EntityMarksFn marks;
};

// json.dumps of an int list: "[3, 7, 1]".
void append_int_list(std::string& out, std::span<const int> values) {
  out += '[';
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    append_int(out, values[i]);
  }
  out += ']';
}

// One Entity; `confounders` are its own (empty without). Without marks (a symbolic-only problem,
// whose levels may have no drawing) `real_bbox` and `mask` are left out.
void write_entity(const Writer& w, ConfigId config, int component, const ComponentText& text,
                  const Entity& e, std::span<const int> confounders) {
  RAVE_CHECK(e.type != 0, "entities of Type none are never written");
  std::string& out = w.out;
  out += text.entities[static_cast<std::size_t>(e.slot)];
  if (w.marks != nullptr) {
    const EntityMarks m = w.marks(config, component, e);
    out += " real_bbox=\"";
    out += m.real_bbox;  // digits, commas, brackets, spaces: nothing to escape
    out += "\" mask=\"";
    out += m.mask;
    out += '"';
  }
  out += " Type=\"";
  append_int(out, e.type);
  out += "\" Size=\"";
  append_int(out, e.size);
  out += "\" Color=\"";
  append_int(out, e.color);
  out += "\" Angle=\"";
  append_int(out, e.angle);
  if (!confounders.empty()) {
    out += "\" Confounders=\"";
    append_int_list(out, confounders);
  }
  out += "\" />";
}

void write_panel(const Writer& w, const Configuration& c, const ConfigText& text,
                 const Panel& panel) {
  std::string& out = w.out;
  RAVE_CHECK(panel.components.size() == c.components.size(),
             "panel does not fit its configuration");
  out += text.panel_head;
  for (std::size_t k = 0; k < c.components.size(); ++k) {
    const ComponentText& ct = text.components[k];
    const ComponentPanel& comp = panel.components[k];
    out += ct.layout_head;
    append_int(out, comp.number_level());
    out += ct.layout_middle;
    append_int(out, comp.uniformity);
    out += comp.entities.empty() ? "\" />" : "\">";
    const std::size_t per_entity =
        comp.entities.empty() ? 0 : comp.confounders.size() / comp.entities.size();
    for (std::size_t i = 0; i < comp.entities.size(); ++i)
      write_entity(w, c.id, static_cast<int>(k), ct, comp.entities[i],
                   std::span(comp.confounders).subspan(i * per_entity, per_entity));
    out += comp.entities.empty() ? "</Component>" : "</Layout></Component>";
  }
  out += "</Struct></Panel>";
}

// Unknown rules (an empty list: a perceived problem, a rule-free import) are written as no Rules
// element at all, which the reader reads back as unknown.
void write_rules(std::string& out, const std::vector<RuleGroup>& groups) {
  if (groups.empty()) return;
  out += "<Rules>";
  for (std::size_t g = 0; g < groups.size(); ++g) {
    out += cat({"<Rule_Group", attribute("id", std::to_string(g)), ">"});
    for (const Rule& r : groups[g].rules)
      out += cat({"<Rule", attribute("name", rule_name_text(r.name)),
                  attribute("attr", rule_attr_text(r.attr)), " />"});
    out += "</Rule_Group>";
  }
  out += "</Rules>";
}

void write_modified(std::string& out,
                    const std::array<std::vector<Modification>, kCandidates>& modified) {
  out += "<Modified_attributes>";
  for (std::size_t i = 0; i < kCandidates; ++i) {
    out += cat({"<Candidate", attribute("id", std::to_string(i))});
    if (modified[i].empty()) {
      out += " />";
      continue;
    }
    out += ">";
    for (const Modification& m : modified[i])
      out += cat({"<Attribute", attribute("component_id", std::to_string(m.component)),
                  attribute("name", attr_name(m.attr)), " />"});
    out += "</Candidate>";
  }
  out += "</Modified_attributes>";
}

// `<Data>` with the variant's attributes and the render style, each only when it differs from the
// original's (docs/variants.md, docs/rendering.md#styles), so that the original's files are
// unchanged.
void write_data_head(std::string& out, const Problem& problem) {
  const Variant& v = problem.variant;
  out += "<Data";
  if (v.grid != kDefaultGrid) out += attribute("grid", std::to_string(v.grid));
  if (v.values != 0) out += attribute("values", std::to_string(v.values));
  if (v.confounders != 0) out += attribute("confounders", std::to_string(v.confounders));
  if (v.regime != Regime::kNeutral) out += attribute("regime", regime_name(v.regime));
  if (!hold_out_text(v).empty()) out += attribute("hold_out", hold_out_text(v));
  if (!problem.style.is_original()) out += attribute("style", style_text(problem.style));
  if (problem.split) out += attribute("split", split_name(*problem.split));
  out += "><Panels>";
}

}  // namespace

std::string write_problem_xml(const Problem& problem, EntityMarksFn marks) {
  const Configuration& c = configuration(problem.config);
  RAVE_CHECK(problem.rules.empty() || problem.rules.size() == c.components.size(),
             "one rule group per component, or none (unknown)");
  RAVE_CHECK(static_cast<int>(problem.context.size()) == problem.variant.context_panels(),
             "the context holds grid * grid - 1 panels");
  const ConfigText& text = config_text(problem.config);
  std::string out;
  out.reserve(8192 + 49152 * c.components.size() * static_cast<std::size_t>(problem.panel_count()) /
                         kPanels);
  write_data_head(out, problem);
  const Writer w{out, marks};
  for (int i = 0; i < problem.panel_count(); ++i) write_panel(w, c, text, problem.panel(i));
  out += "</Panels>";
  write_rules(out, problem.rules);
  if (problem.modified) write_modified(out, *problem.modified);
  out += "</Data>";
  return out;
}

}  // namespace rave::engine
