#pragma once
// Where a render style's entities can be in one configuration's panels
// (perception/styled_parse.hpp): per component, each slot's place and the pixels it owns (nearer
// its centre than any other slot's of the component; an Out component owns the panel but the
// disc its In part reaches, whose pixels a later component may cover), the level ranges its
// layout allows under the variant, and the separator pixels, which every reading skips.
//
//   const StyledLayout layout(style, variant, ConfigId::kDistributeFour);
//   const StyledComponent& grid = layout.component(0);
//   if (grid.owner[p] == 2) ...                     // pixel p belongs to slot 2
#include <cstdint>
#include <vector>

#include "engine/model/attributes.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/style.hpp"
#include "engine/model/variant.hpp"
#include "engine/render/styled.hpp"

namespace rave::perception {

/// One component of a configuration as the style draws it.
struct StyledComponent {
  const engine::LayoutSpec* layout = nullptr;
  bool outer = false;                       ///< an Out component (marks 3 and 4 not drawn)
  std::vector<engine::EntityPlace> places;  ///< per slot
  std::vector<std::uint8_t> owner;          ///< per pixel: the slot it belongs to, or kNoSlot
  engine::Range type, size, color;          ///< file levels the layout allows
  double hidden = 0;  ///< pixels nearer the centre than this are not read (a later part's)
};

inline constexpr std::uint8_t kNoSlot = 255;

class StyledLayout {
 public:
  StyledLayout(const engine::RenderStyle& style, const engine::Variant& variant,
               engine::ConfigId config);
  engine::ConfigId config() const { return config_; }
  int components() const { return static_cast<int>(parts_.size()); }
  const StyledComponent& component(int k) const { return parts_[static_cast<std::size_t>(k)]; }
  /// Whether pixel p lies on a separator (Left_Right, Up_Down).
  bool separator(int p) const { return separator_[static_cast<std::size_t>(p)] != 0; }

 private:
  engine::ConfigId config_;
  std::vector<StyledComponent> parts_;
  std::vector<std::uint8_t> separator_;
};

}  // namespace rave::perception
