#pragma once
// The level ranges a variant samples from (docs/variants.md), per configuration and split:
// `--values` widens Type, Size and Color; a value regime gives train/val and test disjoint level
// sets. The generator samples in *sampling levels* and writes *file levels*: they are the same
// except under interpolation, where sampling level i of an attribute is file level offset + 2 i
// (odd levels in train/val, even in test), so that every rule holds on the file levels too
// (Progression's step doubles; Arithmetic is pruned under value regimes,
// engine/rules/rule_table.hpp).
//
//   const VariantSpace& s = variant_space(ConfigId::kCenterSingle, v, Split::kTest);
//   s.config.components[0].layout.color;          // sampling range of Color
//   int file_level = s.maps[0][2].level(index);   // Color of component 0
#include <array>
#include <optional>
#include <vector>

#include "engine/model/configuration.hpp"
#include "engine/model/variant.hpp"

namespace rave::engine {

/// File level = offset + stride * sampling level.
struct LevelMap {
  int offset = 0;
  int stride = 1;
  int level(int index) const { return offset + stride * index; }
  /// The sampling level of a file level; nullopt when the level is not on the map's grid.
  std::optional<int> index(int level) const;
  bool identity() const { return offset == 0 && stride == 1; }
  friend bool operator==(const LevelMap&, const LevelMap&) = default;
};

/// Per component, the maps of Type, Size and Color (in that order).
using LevelMaps = std::array<LevelMap, 3>;

/// A configuration as a variant samples it.
struct VariantSpace {
  Configuration config;         ///< the configuration with sampling-level ranges
  std::vector<LevelMaps> maps;  ///< per component
  bool identity = true;         ///< every map is the identity
};

/// The space of `id` under `variant` for problems of `split` (train and val share one; the split
/// matters only under a value regime, where it must be given). Built once per key, thread-safe; the
/// original values and a neutral regime give the configuration of spec 2 itself.
const VariantSpace& variant_space(ConfigId id, const Variant& variant, std::optional<Split> split);
/// The Type/Size/Color range of `layout` (original tables) widened to `values` levels: Type [1, V],
/// Size and Color [0, V-1], a layout's narrower range scaled (Out's Size [3,5] -> [V/2, V-1]).
Range widened_range(Range layout_range, Attr attr, int values);

}  // namespace rave::engine
