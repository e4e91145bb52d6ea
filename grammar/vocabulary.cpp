#include "grammar/vocabulary.hpp"

namespace rave::grammar {

std::string_view level_name(Level level) {
  static constexpr std::array<std::string_view, 5> kNames{"Root", "Structure", "Component", "Layout",
                                                          "Entity"};
  return kNames[static_cast<std::size_t>(level)];
}

std::optional<int> meta_structure_index(std::string_view name) {
  for (std::size_t i = 0; i < kMetaStructureNames.size(); ++i)
    if (kMetaStructureNames[i] == name) return static_cast<int>(i);
  return std::nullopt;
}

std::optional<Level> level_of(std::string_view name) {
  if (name == kRootName) return Level::kRoot;
  if (name == kEntityName) return Level::kEntity;
  const auto index = meta_structure_index(name);
  if (!index) return std::nullopt;
  if (*index < 4) return Level::kStructure;
  if (*index < 11) return Level::kComponent;
  return Level::kLayout;
}

}  // namespace rave::grammar
