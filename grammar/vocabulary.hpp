#pragma once
// The A-SIG node vocabulary (spec/raven.md 1 and 11.2): the five grammar levels, the node names of
// the seven configurations, and the 21-slot META_STRUCTURE_FORMAT order of the npz
// `meta_structure` field.
//
//   auto level = level_of("Distribute_Four");        // Level::kLayout
//   int bit = *meta_structure_index("Out_In");       // 3
#include <array>
#include <optional>
#include <string_view>

namespace rave::grammar {

/// Grammar levels, root first; a node's children are always of the next level.
enum class Level { kRoot, kStructure, kComponent, kLayout, kEntity };

/// "Root", "Structure", "Component", "Layout", "Entity".
std::string_view level_name(Level level);

/// The end-of-node token of serialized sentences.
inline constexpr std::string_view kEndToken = "/";
/// The root's name in every RAVEN tree.
inline constexpr std::string_view kRootName = "Scene";
/// The entity node's name in attributed sentences.
inline constexpr std::string_view kEntityName = "Entity";

/// META_STRUCTURE_FORMAT: index order of the npz `meta_structure` multi-hot vector.
inline constexpr std::array<std::string_view, 21> kMetaStructureNames{
    "Singleton",          "Left_Right",          "Up_Down",          "Out_In",
    "Left",               "Right",               "Up",               "Down",
    "Out",                "In",                  "Grid",             "Center_Single",
    "Distribute_Four",    "Distribute_Nine",     "Left_Center_Single", "Right_Center_Single",
    "Up_Center_Single",   "Down_Center_Single",  "Out_Center_Single", "In_Center_Single",
    "In_Distribute_Four"};

/// Index of a name in kMetaStructureNames (nullopt for Scene, Entity and unknown names).
std::optional<int> meta_structure_index(std::string_view name);
/// Grammar level of a known node name (Scene, Entity, or one of the 21); nullopt otherwise.
std::optional<Level> level_of(std::string_view name);

}  // namespace rave::grammar
