#pragma once
// The A-SIG node vocabulary (docs/format.md#grammar-levels, docs/format.md#structure-sentence): the
// five grammar levels, the node names of the seven configurations, the attributes an attributed
// sentence may put on a node, and the 21-slot META_STRUCTURE_FORMAT order of the npz
// `meta_structure` field.
//
//   auto level = level_of("Distribute_Four");        // Level::kLayout
//   int bit = *meta_structure_index("Out_In");       // 3
//   for (auto name : names_at(Level::kComponent)) ... // Left, Right, Up, Down, Out, In, Grid
#include <array>
#include <optional>
#include <span>
#include <string_view>

namespace rave::grammar {

/// Grammar levels, root first; a node's children are always of the next level.
enum class Level { kRoot, kStructure, kComponent, kLayout, kEntity };
/// Number of grammar levels (the deepest possible tree has this many nodes on a path).
inline constexpr int kNumLevels = 5;

/// "Root", "Structure", "Component", "Layout", "Entity".
std::string_view level_name(Level level);
/// The level of a node's children; nullopt for Entity (a leaf).
std::optional<Level> child_level(Level level);

/// The end-of-node token of serialized sentences.
inline constexpr std::string_view kEndToken = "/";
/// The root's name in every RAVEN tree.
inline constexpr std::string_view kRootName = "Scene";
/// The entity node's name in attributed sentences.
inline constexpr std::string_view kEntityName = "Entity";

/// META_STRUCTURE_FORMAT: index order of the npz `meta_structure` multi-hot vector.
inline constexpr std::array<std::string_view, 21> kMetaStructureNames{"Singleton",
                                                                      "Left_Right",
                                                                      "Up_Down",
                                                                      "Out_In",
                                                                      "Left",
                                                                      "Right",
                                                                      "Up",
                                                                      "Down",
                                                                      "Out",
                                                                      "In",
                                                                      "Grid",
                                                                      "Center_Single",
                                                                      "Distribute_Four",
                                                                      "Distribute_Nine",
                                                                      "Left_Center_Single",
                                                                      "Right_Center_Single",
                                                                      "Up_Center_Single",
                                                                      "Down_Center_Single",
                                                                      "Out_Center_Single",
                                                                      "In_Center_Single",
                                                                      "In_Distribute_Four"};

/// Every node name: Scene, the 21 names in META_STRUCTURE_FORMAT order, Entity. An index into
/// this table is a node's token id (Scene 0, meta_structure slot i is token i + 1, Entity 22).
inline constexpr std::array<std::string_view, kMetaStructureNames.size() + 2> kNodeNames = [] {
  std::array<std::string_view, kMetaStructureNames.size() + 2> names{};
  names.front() = kRootName;
  for (std::size_t i = 0; i < kMetaStructureNames.size(); ++i)
    names[i + 1] = kMetaStructureNames[i];
  names.back() = kEntityName;
  return names;
}();

/// Index of a name in kMetaStructureNames (nullopt for Scene, Entity and unknown names).
std::optional<int> meta_structure_index(std::string_view name);
/// Index of a name in kNodeNames (nullopt for unknown names).
std::optional<int> node_index(std::string_view name);
/// Grammar level of a known node name (Scene, Entity, or one of the 21); nullopt otherwise.
std::optional<Level> level_of(std::string_view name);
/// The node names of one level, in kNodeNames order (Root: Scene; Entity: Entity).
std::span<const std::string_view> names_at(Level level);

/// Layout attributes of attributed sentences: levels, except Position (slot indices, `0,3`).
inline constexpr std::array<std::string_view, 3> kLayoutAttributeNames{"Number", "Position",
                                                                       "Uniformity"};
/// Entity attributes of attributed sentences: the slot index and four levels
/// (docs/format.md#value-tables).
inline constexpr std::array<std::string_view, 5> kEntityAttributeNames{"slot", "Type", "Size",
                                                                       "Color", "Angle"};
/// The attribute names a node of `level` may carry (empty above Layout).
std::span<const std::string_view> attribute_names(Level level);

}  // namespace rave::grammar
