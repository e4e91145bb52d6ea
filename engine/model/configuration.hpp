#pragma once
// The seven RAVEN figure configurations exactly as the original build_tree makes them
// (docs/format.md#configurations): structure, components, layouts, slot tables and level ranges.
//
//   const Configuration& c = configuration(ConfigId::kDistributeNine);
//   c.components[0].layout.slots.size() == 9;  c.folder == "distribute_nine";
//   auto id = find_configuration("O-IG");     // folder names and paper names both work
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/attributes.hpp"

namespace rave::engine {

/// The configurations in the original's processing order (also the paper's column order).
enum class ConfigId {
  kCenterSingle,
  kDistributeFour,
  kDistributeNine,
  kLeftRight,
  kUpDown,
  kOutInCenter,
  kOutInGrid,
};
inline constexpr int kNumConfigs = 7;

/// A slot of a layout: centre and extent in units of the panel side (y = row, x = column).
struct Slot {
  double y = 0, x = 0, h = 0, w = 0;
  friend bool operator==(const Slot&, const Slot&) = default;
};

/// A Layout node of the grammar with its *original* (pre-pruning) constraints.
struct LayoutSpec {
  std::string_view name;    ///< e.g. "Distribute_Four"
  std::vector<Slot> slots;  ///< Position values index this list
  Range number;             ///< Number levels (count - 1)
  Range type, size, color, angle;
  Range uniformity = kUniformityRange;
};

/// A Component node (one child Layout in every configuration).
struct ComponentSpec {
  int id = 0;
  std::string_view name;  ///< "Grid", "Left", "Out", ...
  LayoutSpec layout;
};

/// One configuration: the A-SIG grammar of one figure family.
struct Configuration {
  ConfigId id;
  std::string_view folder;  ///< dataset folder name, e.g. "in_distribute_four_out_center_single"
  std::string_view paper_name;  ///< column name in the paper, e.g. "O-IG"
  std::string_view structure;   ///< Structure node name: Singleton, Left_Right, Up_Down, Out_In
  std::vector<ComponentSpec> components;
};

/// The configuration with this id.
const Configuration& configuration(ConfigId id);
/// All seven, in ConfigId order.
std::span<const Configuration> all_configurations();
/// Looks up by folder name, paper name (Center, 2x2Grid, 3x3Grid, L-R, U-D, O-IC, O-IG) or a
/// short alias (center, 2x2, 3x3, lr, ud, oic, oig); case-sensitive on folder names.
std::optional<ConfigId> find_configuration(std::string_view name);
/// find_configuration, or UsageError "unknown configuration '<name>'; known: ..." (the message the
/// CLI and the Python package print).
ConfigId configuration_named(std::string_view name);
/// The short aliases find_configuration accepts for a configuration besides its folder and paper
/// names (e.g. "center", "cs").
std::span<const std::string_view> configuration_aliases(ConfigId id);
/// Comma-separated list of accepted names, for error messages.
std::string configuration_names();
/// Index 0..6 of a configuration (its position in ConfigId order).
inline int config_index(ConfigId id) { return static_cast<int>(id); }

}  // namespace rave::engine
