#include "engine/model/attributes.hpp"

namespace rave::engine {
namespace {

constexpr std::array<std::string_view, 7> kAttrNames{"Number", "Position", "Type",      "Size",
                                                     "Color",  "Angle",    "Uniformity"};

}  // namespace

std::string_view attr_name(Attr attr) { return kAttrNames[static_cast<std::size_t>(attr)]; }

std::optional<Attr> parse_attr(std::string_view name) {
  for (std::size_t i = 0; i < kAttrNames.size(); ++i)
    if (kAttrNames[i] == name) return static_cast<Attr>(i);
  return std::nullopt;
}

}  // namespace rave::engine
