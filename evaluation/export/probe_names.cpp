// The words of the perception probes (evaluation/export/internal/probe_names.hpp).
#include "evaluation/export/internal/probe_names.hpp"

#include <algorithm>
#include <bit>
#include <set>

#include "common/error.hpp"
#include "engine/model/attributes.hpp"
#include "evaluation/export/internal/probe_facts.hpp"

namespace rave::evaluation::internal {
namespace {

const engine::LayoutSpec& layout(engine::ConfigId config, int component) {
  return engine::configuration(config).components.at(static_cast<std::size_t>(component)).layout;
}

// The index of `v` among the distinct values of `all`, ascending.
int rank_of(const std::set<double>& all, double v) {
  return static_cast<int>(std::distance(all.begin(), all.find(v)));
}

std::string axis_word(int rank, int count, bool rows) {
  static const char* const kRows[] = {"top", "middle", "bottom"};
  static const char* const kColumns[] = {"left", "middle", "right"};
  RAVE_CHECK(count == 2 || count == 3, "a grid of places is 2x2 or 3x3");
  const int at = count == 2 ? rank * 2 : rank;
  return rows ? kRows[at] : kColumns[at];
}

}  // namespace

std::pair<int, int> count_range(engine::ConfigId config) {
  int least = 0, most = 0;
  for (const engine::ComponentSpec& c : engine::configuration(config).components) {
    least += c.layout.number.min + 1;
    most += c.layout.number.max + 1;
  }
  return {least, most};
}

std::vector<std::string> place_names(engine::ConfigId config, int component) {
  const engine::LayoutSpec& l = layout(config, component);
  std::set<double> ys, xs;
  for (const engine::Slot& s : l.slots) ys.insert(s.y), xs.insert(s.x);
  std::vector<std::string> names;
  for (const engine::Slot& s : l.slots) {
    const std::string row = axis_word(rank_of(ys, s.y), static_cast<int>(ys.size()), true);
    const std::string column = axis_word(rank_of(xs, s.x), static_cast<int>(xs.size()), false);
    std::string name = row;
    if (row == "middle" && column == "middle")
      name = "center";
    else
      name.append(" ").append(column);
    names.push_back(name);
  }
  return names;
}

std::string look_name(ProbeAttr attr, int level) {
  if (attr == ProbeAttr::kShape)
    return level >= 1 && level < static_cast<int>(engine::kTypeNames.size())
               ? std::string(engine::kTypeNames[static_cast<std::size_t>(level)])
               : "";
  RAVE_CHECK(attr == ProbeAttr::kColor, "only shapes and colours are named");
  const int grey = engine::kColorValues.at(static_cast<std::size_t>(level));
  if (grey == 255) return "white";
  if (grey == 0) return "black";
  return grey >= 32 && grey <= 223 ? "gray" : "";
}

std::vector<std::string> look_names(ProbeAttr attr) {
  if (attr == ProbeAttr::kColor) return {"white", "gray", "black"};
  return {engine::kTypeNames.begin() + 1, engine::kTypeNames.end()};
}

std::string attribute_set_text(const std::vector<ProbeAttr>& attrs) {
  if (attrs.empty()) return "none";
  std::string text;
  for (ProbeAttr a : attrs) text += (text.empty() ? "" : ", ") + std::string(probe_attr_name(a));
  return text;
}

std::vector<std::string> attribute_sets(const std::vector<ProbeAttr>& attrs) {
  std::vector<unsigned> masks;
  const auto bit = [&](ProbeAttr a) {
    const auto at = std::find(attrs.begin(), attrs.end(), a);
    return at == attrs.end() ? 0u : 1u << (at - attrs.begin());
  };
  const unsigned both = bit(ProbeAttr::kNumber) | bit(ProbeAttr::kPosition);
  for (unsigned m = 0; m < (1u << attrs.size()); ++m)
    if (std::popcount(m & both) < 2) masks.push_back(m);
  std::stable_sort(masks.begin(), masks.end(),
                   [](unsigned a, unsigned b) { return std::popcount(a) < std::popcount(b); });
  std::vector<std::string> out;
  for (unsigned m : masks) {
    std::vector<ProbeAttr> set;
    for (std::size_t i = 0; i < attrs.size(); ++i)
      if (m >> i & 1u) set.push_back(attrs[i]);
    out.push_back(attribute_set_text(set));
  }
  return out;
}

std::string component_words(engine::ConfigId config, int component) {
  const std::string_view name =
      engine::configuration(config).components.at(static_cast<std::size_t>(component)).name;
  const bool single = single_entity(config, component);
  if (name == "Left") return "the left shape";
  if (name == "Right") return "the right shape";
  if (name == "Up") return "the top shape";
  if (name == "Down") return "the bottom shape";
  if (name == "Out") return "the outer shape";
  if (name == "In") return single ? "the inner shape" : "the small shapes inside the outer shape";
  return single ? "the shape" : "the shapes";
}

}  // namespace rave::evaluation::internal
