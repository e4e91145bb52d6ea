// The questions of each probe type and their answers (evaluation/export/probes.hpp, docs/probes.md).
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/attributes.hpp"
#include "engine/model/configuration.hpp"
#include "evaluation/export/internal/probe_facts.hpp"
#include "evaluation/export/internal/probe_names.hpp"
#include "evaluation/export/probes.hpp"

namespace rave::evaluation {
namespace {

using internal::PanelFacts;
using internal::slots_of;
using internal::uniform_value;
using Facts = std::vector<PanelFacts>;

constexpr ProbeAttr kLooks[] = {ProbeAttr::kShape, ProbeAttr::kSize, ProbeAttr::kColor};

int components(const engine::Problem& p) {
  return static_cast<int>(p.context[0].components.size());
}

const engine::ComponentPanel& part(const engine::Problem& p, int panel, int component) {
  return p.panel(panel).components[static_cast<std::size_t>(component)];
}

// count: every readable panel of a configuration whose panels hold different numbers of shapes.
std::vector<Probe> count_probes(const engine::Problem& p, const Facts& facts) {
  const auto [least, most] = internal::count_range(p.config);
  if (least == most) return {};
  std::vector<std::string> choices;
  for (int n = least; n <= most; ++n) choices.push_back(std::to_string(n));
  std::vector<Probe> out;
  for (int i = 0; i < p.panel_count(); ++i) {
    if (!facts[static_cast<std::size_t>(i)].readable) continue;
    std::size_t n = 0;
    for (const auto& c : p.panel(i).components) n += c.entities.size();
    out.push_back({.type = ProbeType::kCount,
                   .panels = {i},
                   .choices = choices,
                   .answer = std::to_string(n)});
  }
  return out;
}

// empty_position: a readable panel whose grid component has exactly one place empty.
std::vector<Probe> empty_probes(const engine::Problem& p, const Facts& facts) {
  std::vector<Probe> out;
  for (int c = 0; c < components(p); ++c) {
    if (internal::single_entity(p.config, c)) continue;
    const std::vector<std::string> names = internal::place_names(p.config, c);
    for (int i = 0; i < p.panel_count(); ++i) {
      const std::vector<int> slots = slots_of(part(p, i, c));
      if (!facts[static_cast<std::size_t>(i)].readable || slots.size() + 1 != names.size())
        continue;
      int empty = 0;
      while (empty < static_cast<int>(slots.size()) &&
             slots[static_cast<std::size_t>(empty)] == empty)
        ++empty;
      out.push_back({.type = ProbeType::kEmptyPosition,
                     .panels = {i},
                     .component = c,
                     .choices = names,
                     .answer = names[static_cast<std::size_t>(empty)]});
    }
  }
  return out;
}

// shape and color: the one entity of a single-entity component, where its readings agree.
std::vector<Probe> look_probes(const engine::Problem& p, const Facts& facts, ProbeAttr attr) {
  const ProbeType type = attr == ProbeAttr::kShape ? ProbeType::kShape : ProbeType::kColor;
  std::vector<Probe> out;
  for (int c = 0; c < components(p); ++c) {
    if (!internal::single_entity(p.config, c)) continue;
    for (int i = 0; i < p.panel_count(); ++i) {
      if (!visible(facts[static_cast<std::size_t>(i)], c, attr)) continue;
      const int level = internal::entity_value(part(p, i, c).entities.at(0), attr);
      const std::string answer = internal::look_name(attr, level);
      if (answer.empty()) continue;  // a grey too near white or black to name (docs/probes.md)
      out.push_back({.type = type,
                     .panels = {i},
                     .component = c,
                     .choices = internal::look_names(attr),
                     .answer = answer});
    }
  }
  return out;
}

// The attributes `same` and row_change compare in a component over `panels`: number and position
// for a grid; Type, Size and Color where every panel shows a single value (all its entities
// alike). nullopt when such a value's readings disagree in some panel: the question is not asked.
std::optional<std::vector<ProbeAttr>> comparable(const engine::Problem& p, const Facts& facts,
                                                 int c, const std::vector<int>& panels) {
  std::vector<ProbeAttr> out;
  if (!internal::single_entity(p.config, c)) out = {ProbeAttr::kNumber, ProbeAttr::kPosition};
  for (ProbeAttr a : kLooks) {
    const auto shared = [&](int i) { return uniform_value(part(p, i, c), a).has_value(); };
    const auto shown = [&](int i) { return visible(facts[static_cast<std::size_t>(i)], c, a); };
    if (!std::all_of(panels.begin(), panels.end(), shared)) continue;
    if (!std::all_of(panels.begin(), panels.end(), shown)) return std::nullopt;
    out.push_back(a);
  }
  return out;
}

// Whether `attr` of component c takes other values across `panels` (docs/probes.md): number the
// count, position the places where the count stays, the others the panel's shared value.
bool changes(const engine::Problem& p, int c, const std::vector<int>& panels, ProbeAttr attr) {
  const auto differs = [&](auto value) {
    return std::any_of(panels.begin(), panels.end(),
                       [&](int i) { return value(i) != value(panels[0]); });
  };
  if (attr == ProbeAttr::kPosition)
    return !changes(p, c, panels, ProbeAttr::kNumber) &&
           differs([&](int i) { return slots_of(part(p, i, c)); });
  return differs([&](int i) { return uniform_value(part(p, i, c), attr); });
}

std::vector<Probe> same_probes(const engine::Problem& p, const Facts& facts) {
  std::vector<Probe> out;
  for (int c = 0; c < components(p); ++c)
    for (int a = 0; a < p.panel_count(); ++a)
      for (int b = a + 1; b < p.panel_count(); ++b) {
        if (!facts[static_cast<std::size_t>(a)].readable ||
            !facts[static_cast<std::size_t>(b)].readable)
          continue;
        const auto attrs = comparable(p, facts, c, {a, b});
        for (ProbeAttr attr : attrs.value_or(std::vector<ProbeAttr>{})) {
          const bool differ = attr == ProbeAttr::kPosition
                                  ? slots_of(part(p, a, c)) != slots_of(part(p, b, c))
                                  : changes(p, c, {a, b}, attr);
          out.push_back({.type = ProbeType::kSame,
                         .panels = {a, b},
                         .component = c,
                         .attribute = attr,
                         .choices = {"yes", "no"},
                         .answer = differ ? "no" : "yes"});
        }
      }
  return out;
}

std::vector<Probe> row_probes(const engine::Problem& p, const Facts& facts) {
  std::vector<Probe> out;
  const int n = p.grid();
  for (int r = 0; r + 1 < n; ++r) {
    std::vector<int> row;
    for (int k = 0; k < n; ++k) row.push_back(r * n + k);
    if (!std::all_of(row.begin(), row.end(),
                     [&](int i) { return facts[static_cast<std::size_t>(i)].readable; }))
      continue;
    for (int c = 0; c < components(p); ++c) {
      const auto listed = comparable(p, facts, c, row);
      if (!listed) continue;
      const std::vector<ProbeAttr>& attrs = *listed;
      std::vector<ProbeAttr> changed;
      for (ProbeAttr a : attrs)
        if (changes(p, c, row, a)) changed.push_back(a);
      out.push_back({.type = ProbeType::kRowChange,
                     .panels = row,
                     .component = c,
                     .row = r + 1,
                     .attributes = attrs,
                     .choices = internal::attribute_sets(attrs),
                     .answer = internal::attribute_set_text(changed)});
    }
  }
  return out;
}

// one_difference: per attribute, the one candidate that differs from the answer in it alone.
std::vector<Probe> one_difference_probes(const engine::Problem& p, const Facts& facts) {
  if (!p.target) return {};
  const int first = static_cast<int>(p.context.size()), answer = *p.target;
  for (int k = 0; k < engine::kCandidates; ++k)
    if (!internal::fully_visible(facts[static_cast<std::size_t>(first + k)])) return {};
  std::vector<std::string> choices;
  for (int k = 0; k < engine::kCandidates; ++k)
    if (k != answer) choices.push_back(std::to_string(k + 1));
  std::vector<Probe> out;
  for (int a = 0; a < kProbeAttrs; ++a) {
    const auto attr = static_cast<ProbeAttr>(a);
    std::vector<int> found;
    for (int k = 0; k < engine::kCandidates; ++k)
      if (k != answer && internal::differs_only_in(p.candidates[static_cast<std::size_t>(answer)],
                                                   p.candidates[static_cast<std::size_t>(k)], attr))
        found.push_back(k);
    if (found.size() == 1)
      out.push_back({.type = ProbeType::kOneDifference,
                     .panels = {first + answer},
                     .attribute = attr,
                     .choices = choices,
                     .answer = std::to_string(found[0] + 1)});
  }
  return out;
}

}  // namespace

std::array<std::vector<Probe>, kProbeTypes> probe_candidates(const engine::Problem& problem) {
  std::array<std::vector<Probe>, kProbeTypes> out;
  const Facts facts = internal::visual_facts(problem);
  if (facts.empty()) return out;
  const auto at = [&](ProbeType t) -> std::vector<Probe>& {
    return out[static_cast<std::size_t>(t)];
  };
  at(ProbeType::kCount) = count_probes(problem, facts);
  at(ProbeType::kEmptyPosition) = empty_probes(problem, facts);
  at(ProbeType::kShape) = look_probes(problem, facts, ProbeAttr::kShape);
  at(ProbeType::kColor) = look_probes(problem, facts, ProbeAttr::kColor);
  at(ProbeType::kSame) = same_probes(problem, facts);
  at(ProbeType::kRowChange) = row_probes(problem, facts);
  at(ProbeType::kOneDifference) = one_difference_probes(problem, facts);
  return out;
}

}  // namespace rave::evaluation
