// read_problem_xml / parse_problem_xml (engine/formats/xml_io.hpp). Attribute order is never
// relied on (Python 2 wrote them sorted, Python 3 in insertion order). Every failure throws
// InputError with `line:col` (XML syntax) or an element path such as
// `Data/Panels/Panel[4]/Struct/Component[2]/Layout/Entity[1]@Type` (1-based indices).
//
// Speed: about half the bytes of a problem file are Entity `mask` values (run-length pixel
// lists the reader never uses). They are cut out before the text is parsed (`mask=""` remains), so
// no parser scans them. That parse is trusted only when every cut turns out to be the start of an
// Entity's `mask` value: then the two parses differ in nothing the reader looks at (a parser's
// state after `mask="` does not depend on what follows, and a value without a NUL ends at its
// first quote whatever it holds). Otherwise, and on any error, the whole text is parsed again, so
// results and error messages are always those of the uncut text. pugixml parses both, in place.
#include <pugixml.hpp>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <optional>
#include <span>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/lines.hpp"
#include "common/text.hpp"
#include "engine/formats/internal/xml_fields.hpp"
#include "engine/formats/layout.hpp"
#include "engine/formats/xml_io.hpp"

namespace rave::engine {
namespace {

using internal::LayoutText;
using internal::Place;
using internal::XmlContext;
using internal::XmlNode;

// Counts the cuts of cut_mask_values seen, in document order, as the start of an Entity's mask
// value (the reader visits entities in document order).
class CutCheck {
 public:
  CutCheck(const char* text, std::span<const std::size_t> cuts) : text_(text), cuts_(cuts) {}
  void saw_mask(const char* value) {
    if (value != nullptr && next_ < cuts_.size() && value == text_ + cuts_[next_]) ++next_;
  }
  bool all_seen() const { return next_ == cuts_.size(); }

 private:
  const char* text_;
  std::span<const std::size_t> cuts_;
  std::size_t next_ = 0;
};

// A Struct's Component elements (configurations have one or two), their names and Layout children,
// each looked up when first needed and kept, since several configurations share a Struct name.
struct StructNodes {
  static constexpr std::size_t kMax = 2;
  std::array<XmlNode, kMax> components, layouts;
  std::array<std::string_view, kMax> names, layout_names;  // data() == nullptr: not looked up yet
  std::size_t count = 0;  // all Component children, including any beyond kMax

  std::string_view name(const XmlContext& x, std::size_t k, const Place& component) {
    if (names[k].data() == nullptr) names[k] = x.text(components[k], "name", component);
    return names[k];
  }
  std::string_view layout_name(const XmlContext& x, std::size_t k, const Place& component,
                               const Place& layout) {
    if (layout_names[k].data() == nullptr) {
      layouts[k] = x.child(components[k], "Layout", component);
      layout_names[k] = x.text(layouts[k], "name", layout);
    }
    return layout_names[k];
  }
};

// The configuration a panel's Struct describes (structure, component and layout names); fills
// `nodes` with its Component elements and, on success, their Layout children.
ConfigId match_configuration(const XmlContext& x, XmlNode structure, const Place& place,
                             StructNodes& nodes) {
  const std::string_view name = x.text(structure, "name", place);
  for (XmlNode c = structure.child("Component"); c; c = c.next_sibling("Component"), ++nodes.count)
    if (nodes.count < StructNodes::kMax) nodes.components[nodes.count] = c;
  bool structure_known = false;
  for (const Configuration& c : all_configurations()) {
    if (c.structure != name) continue;
    structure_known = true;
    if (nodes.count != c.components.size())
      x.fail(place, "expected " + std::to_string(c.components.size()) + " Component elements for " +
                        quote_value(name) + ", found " + std::to_string(nodes.count));
    bool match = true;
    for (std::size_t k = 0; k < nodes.count && match; ++k) {
      const Place component{&place, "Component", k + 1}, layout{&component, "Layout"};
      match = nodes.name(x, k, component) == c.components[k].name &&
              nodes.layout_name(x, k, component, layout) == c.components[k].layout.name;
    }
    if (match) return c.id;
  }
  if (!structure_known) x.fail(place, "name", "unknown Struct name " + quote_value(name));
  x.fail(place, "Component and Layout names match no configuration of Struct " + quote_value(name));
}

// The variant a problem's <Data> declares (docs/variants.md) and the level bounds it gives
// entities.
struct ReadVariant {
  Variant variant;
  RenderStyle style;
  std::optional<Split> split;
  int type_max = kDefaultTypeRange.max, size_max = kDefaultSizeRange.max,
      color_max = kDefaultColorRange.max;
};

// The optional <Data> attributes grid, values, confounders, regime, hold_out, style and split.
ReadVariant read_variant(const XmlContext& x, XmlNode data, const Place& place) {
  ReadVariant r;
  Variant& v = r.variant;
  const auto attr = [&](const char* name) {
    return std::string_view(data.attribute(name).value());
  };
  if (!attr("grid").empty()) v.grid = x.level(attr("grid"), "grid", place, kMinGrid, kMaxGrid);
  if (!attr("values").empty())
    v.values = x.level(attr("values"), "values", place, kMinValues, kMaxValues);
  if (!attr("confounders").empty())
    v.confounders = x.level(attr("confounders"), "confounders", place, 1, kMaxConfounders);
  if (!attr("regime").empty()) {
    const auto regime = parse_regime(attr("regime"));
    if (!regime)
      x.fail(place, "regime",
             "unknown regime '" + std::string(attr("regime")) + "' (" + regime_names() + ")");
    v.regime = *regime;
  }
  try {
    if (!attr("hold_out").empty()) parse_hold_out(attr("hold_out"), v.regime, v);
    check_variant(v);
  } catch (const UsageError& e) {
    x.fail(place, e.what());
  }
  try {
    if (!attr("style").empty()) r.style = parse_style(attr("style"));
  } catch (const UsageError& e) {
    x.fail(place, "style", e.what());
  }
  if (!attr("split").empty()) {
    r.split = parse_split(attr("split"));
    if (!r.split) x.fail(place, "split", "expected train, val or test");
  }
  if (v.regime != Regime::kNeutral && !r.split)
    x.fail(place, "split", "a problem of a regime names its split");
  if (v.values != 0) {
    r.type_max = v.values;
    r.size_max = r.color_max = v.values - 1;
  }
  return r;
}

// Entity@Confounders: K levels, a JSON list of integers.
void read_confounders(const XmlContext& x, XmlNode node, const ReadVariant& r, const Place& place,
                      std::vector<int>& out) {
  std::string_view text = x.text(node, "Confounders", place);
  if (text.size() < 2 || text.front() != '[' || text.back() != ']')
    x.fail(place, "Confounders",
           "expected a list of " + std::to_string(r.variant.confounders) + " levels");
  text = text.substr(1, text.size() - 2);
  for (int i = 0; i < r.variant.confounders; ++i) {
    const std::size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    out.push_back(x.level(item, "Confounders", place, 0, r.variant.confounder_levels() - 1));
    if ((comma == std::string_view::npos) != (i + 1 == r.variant.confounders))
      x.fail(place, "Confounders", "expected " + std::to_string(r.variant.confounders) + " levels");
    if (comma != std::string_view::npos) text.remove_prefix(comma + 1);
  }
}

Entity read_entity(const XmlContext& x, XmlNode node, const LayoutText& layout,
                   const ReadVariant& r, const Place& place, CutCheck& cuts) {
  static const internal::AttributeNames kNames{"bbox", "Type", "Size", "Color", "Angle", "mask"};
  std::array<const char*, 6> v;
  internal::find_attributes(node, kNames, v);
  cuts.saw_mask(v[5]);
  Entity e;
  e.slot = x.slot_of(x.required(v[0], "bbox", place), layout, place);
  const LayoutSpec& spec = *layout.layout;  // the layout's own ranges (Out's Color is always 0)
  const bool wide = r.variant.values != 0;  // --values: every layout takes the widened levels
  e.type = x.level(x.required(v[1], "Type", place), "Type", place, wide ? 1 : spec.type.min,
                   wide ? r.type_max : spec.type.max);
  e.size = x.level(x.required(v[2], "Size", place), "Size", place, wide ? 0 : spec.size.min,
                   wide ? r.size_max : spec.size.max);
  e.color = x.level(x.required(v[3], "Color", place), "Color", place, wide ? 0 : spec.color.min,
                    wide ? r.color_max : spec.color.max);
  e.angle =
      x.level(x.required(v[4], "Angle", place), "Angle", place, spec.angle.min, spec.angle.max);
  return e;
}

// Component `index` of a panel, `layout` its (single) Layout child.
ComponentPanel read_component(const XmlContext& x, XmlNode node, XmlNode layout,
                              const ComponentSpec& spec, std::size_t index, const ReadVariant& r,
                              const Place& place, CutCheck& cuts) {
  if (x.integer(node, "id", place) != static_cast<long long>(index))
    x.fail(place, "id", "expected id " + std::to_string(index));
  const Place layout_place{&place, "Layout"};
  static const internal::AttributeNames kNames{"Position", "Uniformity", "Number"};
  std::array<const char*, 3> v;
  internal::find_attributes(layout, kNames, v);
  const LayoutText& known = internal::layout_text(spec.layout);
  x.check_positions(x.required(v[0], "Position", layout_place), known, layout_place);
  ComponentPanel comp;
  comp.uniformity =
      x.level(x.required(v[1], "Uniformity", layout_place), "Uniformity", layout_place, 0, 3);
  const int number = x.level(x.required(v[2], "Number", layout_place), "Number", layout_place,
                             spec.layout.number.min, spec.layout.number.max);
  comp.entities.reserve(static_cast<std::size_t>(number) + 1);
  std::size_t i = 0;
  for (XmlNode entity = layout.child("Entity"); entity;
       entity = entity.next_sibling("Entity"), ++i) {
    const Place entity_place{&layout_place, "Entity", i + 1};
    comp.entities.push_back(read_entity(x, entity, known, r, entity_place, cuts));
    if (r.variant.confounders > 0) read_confounders(x, entity, r, entity_place, comp.confounders);
    for (std::size_t j = 0; j < i; ++j)
      if (comp.entities[j].slot == comp.entities.back().slot)
        x.fail(entity_place, "bbox", "slot used twice in one layout");
  }
  if (static_cast<int>(i) != number + 1)
    x.fail(layout_place, "Number",
           "Number " + std::to_string(number) + " means " + std::to_string(number + 1) +
               " entities, found " + std::to_string(i));
  return comp;
}

Panel read_panel(const XmlContext& x, XmlNode node, std::optional<ConfigId>& config,
                 const ReadVariant& r, const Place& place, CutCheck& cuts) {
  const Place struct_place{&place, "Struct"};
  StructNodes nodes;
  const ConfigId id = match_configuration(x, x.child(node, "Struct", place), struct_place, nodes);
  if (config && *config != id)
    x.fail(struct_place, "configuration " + std::string(configuration(id).folder) +
                             " differs from Panel[1]'s " +
                             std::string(configuration(*config).folder));
  config = id;
  const auto& specs = configuration(id).components;
  Panel panel;
  panel.components.reserve(specs.size());
  for (std::size_t k = 0; k < specs.size();
       ++k)  // match_configuration found specs.size() components
    panel.components.push_back(read_component(x, nodes.components[k], nodes.layouts[k], specs[k], k,
                                              r, Place{&struct_place, "Component", k + 1}, cuts));
  return panel;
}

// The problem in a parsed document; `cuts` is told of every Entity's mask value.
Problem read_document(const XmlContext& x, const pugi::xml_document& doc, CutCheck& cuts) {
  const XmlNode data = doc.document_element();
  const Place data_place{nullptr, "Data"}, panels_place{&data_place, "Panels"};
  if (std::string_view(data.name()) != "Data")
    x.fail(Place{nullptr, "<root>"}, "root element must be Data, not " + quote_value(data.name()));
  const ReadVariant variant = read_variant(x, data, data_place);
  const XmlNode panels = x.child(data, "Panels", data_place);
  thread_local std::vector<XmlNode> panel_nodes;
  const auto wanted = static_cast<std::size_t>(panel_count(variant.variant.grid));
  panel_nodes.assign(wanted, XmlNode());
  std::size_t count = 0;
  for (XmlNode p = panels.child("Panel"); p; p = p.next_sibling("Panel"), ++count)
    if (count < panel_nodes.size()) panel_nodes[count] = p;
  if (count != wanted)
    x.fail(panels_place, "expected " + std::to_string(wanted) + " Panel elements, found " +
                             std::to_string(count));
  Problem problem;
  problem.variant = variant.variant;
  problem.style = variant.style;
  problem.split = variant.split;
  problem.context.resize(wanted - kCandidates);
  std::optional<ConfigId> config;
  for (std::size_t i = 0; i < wanted; ++i)
    problem.panel(static_cast<int>(i)) =
        read_panel(x, panel_nodes[i], config, variant, Place{&panels_place, "Panel", i + 1}, cuts);
  problem.config = *config;
  // Without a Rules element (symbolic exports by other tools) the rules are unknown: rules stays
  // empty.
  if (const XmlNode rules = data.child("Rules"))
    problem.rules = x.rule_groups(rules, configuration(*config), Place{&data_place, "Rules"});
  if (const XmlNode modified = data.child("Modified_attributes"))
    problem.modified = x.modifications(modified, configuration(*config),
                                       Place{&data_place, "Modified_attributes"});
  return problem;
}

using internal::kPugixmlParseOptions;

// The problem in the whole text: the reference behaviour, results and errors alike. Parsed in place
// in a copy, so that every name pugixml hands back points at its own offset in the text.
Problem parse_whole(std::string_view text, const XmlContext& x) {
  const std::string file(x.file);
  internal::check_xml_characters(text, file);
  thread_local std::string copy;
  copy.assign(text);
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed =
      doc.load_buffer_inplace(copy.data(), copy.size(), kPugixmlParseOptions, pugi::encoding_utf8);
  if (!parsed)
    throw InputError(
        file, line_col(text, static_cast<std::size_t>(std::max<std::ptrdiff_t>(parsed.offset, 0))),
        std::string("XML syntax: ") + parsed.description());
  internal::check_xml_tree(doc, text, copy.data(), file);
  CutCheck no_cuts(copy.data(), {});
  return read_document(x, doc, no_cuts);
}

// The problem in `cut` (cut_mask_values' output), parsed in place, or nullopt when that cannot be
// trusted (not parsed, a cut that is no Entity's mask value, or any error).
std::optional<Problem> parse_cut(std::string& cut, std::span<const std::size_t> cuts,
                                 const XmlContext& x) {
  try {
    pugi::xml_document doc;
    if (!doc.load_buffer_inplace(cut.data(), cut.size(), kPugixmlParseOptions, pugi::encoding_utf8))
      return std::nullopt;
    internal::check_xml_tree(doc, cut, cut.data(), std::string(x.file));
    CutCheck check(cut.data(), cuts);
    Problem problem = read_document(x, doc, check);
    if (check.all_seen()) return problem;
  } catch (const InputError&) {
  }
  return std::nullopt;
}

}  // namespace

namespace internal {

void cut_mask_values(std::string_view text, std::string& out, std::vector<std::size_t>& cuts) {
  static constexpr std::string_view kBefore = " mas", kAfter = "=\"";
  out.clear();
  cuts.clear();
  if (std::memchr(text.data(), '\0', text.size()) != nullptr) {
    out.assign(text);
    return;
  }
  out.reserve(text.size());
  std::size_t kept = 0;  // text[kept, ...) is not yet copied
  // 'k' is rare elsewhere in a problem file, so memchr (behind find) skips most of the text.
  for (std::size_t k = text.find('k'); k != std::string_view::npos; k = text.find('k', k + 1)) {
    if (k < kBefore.size() || text.substr(k - kBefore.size(), kBefore.size()) != kBefore ||
        text.substr(k + 1, kAfter.size()) != kAfter)
      continue;
    const std::size_t value = k + 1 + kAfter.size();
    const std::size_t end = text.find('"', value);
    if (end == std::string_view::npos) break;
    out.append(text.data() + kept, value - kept);
    cuts.push_back(out.size());
    kept = end;
    k = end;
  }
  out.append(text.data() + kept, text.size() - kept);
}

Problem parse_problem_xml_uncut(std::string_view text, const std::string& file_name) {
  return parse_whole(text, XmlContext{file_name});
}

}  // namespace internal

// Both functions keep their buffers per thread, so reading many files allocates only the Problem
// and pugixml's document. The cut text first, then (on any doubt) the whole text, which also gives
// every error.
Problem parse_problem_xml(std::string_view text, const std::string& file_name) {
  const XmlContext x{file_name};
  internal::check_xml_characters(text, file_name);  // before the cut, which drops mask values
  thread_local std::string cut;
  thread_local std::vector<std::size_t> cuts;
  internal::cut_mask_values(text, cut, cuts);  // a copy of the text when there is nothing to cut
  if (!cuts.empty())
    if (std::optional<Problem> problem = parse_cut(cut, cuts, x)) return std::move(*problem);
  return parse_whole(text, x);
}

Problem read_problem_xml(const std::filesystem::path& path) {
  thread_local std::string text;
  read_file_into(path, text, kMaxProblemFileBytes);
  return parse_problem_xml(text, path.string());
}

}  // namespace rave::engine
