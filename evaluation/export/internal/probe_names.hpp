#pragma once
// The words of the perception probes (docs/probes.md): shape and colour names, the places of a
// grid, the components, the attribute sets row_change answers with.
//
//   place_names(ConfigId::kDistributeFour, 0)   // {"top left", "top right", "bottom left", ...}
//   look_name(ProbeAttr::kColor, 9)             // "black"; "" for a grey too near white or black
//   attribute_set_text({ProbeAttr::kSize, ProbeAttr::kColor})   // "size, color"
#include <string>
#include <utility>
#include <vector>

#include "engine/model/configuration.hpp"
#include "evaluation/export/probes.hpp"

namespace rave::evaluation::internal {

/// The fewest and the most shapes a panel of the configuration holds (all components).
std::pair<int, int> count_range(engine::ConfigId config);
/// The places of a grid component in slot order: "top left", ..., "center", ...
std::vector<std::string> place_names(engine::ConfigId config, int component);
/// The name of a Type level ("triangle" .. "circle") or of a Color level as white, gray or black;
/// "" for the Colors 1 and 8 (within 31 grey levels of white and black), which are not named.
std::string look_name(ProbeAttr attr, int level);
/// Every name look_name gives for `attr`, in level order.
std::vector<std::string> look_names(ProbeAttr attr);
/// "none" or the attributes in their order, comma-separated: "number, color".
std::string attribute_set_text(const std::vector<ProbeAttr>& attrs);
/// Every answer of a row_change question listing `attrs`: each subset (number and position never
/// together), by size, then in the attributes' order.
std::vector<std::string> attribute_sets(const std::vector<ProbeAttr>& attrs);
/// How a question names the shapes of a component: "the shape", "the left shape", "the shapes",
/// "the small shapes inside the outer shape", ...
std::string component_words(engine::ConfigId config, int component);

}  // namespace rave::evaluation::internal
