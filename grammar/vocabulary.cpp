#include "grammar/vocabulary.hpp"

namespace rave::grammar {
namespace {

// First and one-past-last index in kNodeNames of each level's names (kNodeNames is grouped by
// level: Scene, 4 Structures, 7 Components, 10 Layouts, Entity).
constexpr std::array<std::pair<std::size_t, std::size_t>, kNumLevels> kLevelSpans{
    {{0, 1}, {1, 5}, {5, 12}, {12, 22}, {22, 23}}};

}  // namespace

std::string_view level_name(Level level) {
  static constexpr std::array<std::string_view, kNumLevels> kNames{"Root", "Structure", "Component",
                                                                   "Layout", "Entity"};
  return kNames[static_cast<std::size_t>(level)];
}

std::optional<Level> child_level(Level level) {
  if (level == Level::kEntity) return std::nullopt;
  return static_cast<Level>(static_cast<int>(level) + 1);
}

std::optional<int> meta_structure_index(std::string_view name) {
  for (std::size_t i = 0; i < kMetaStructureNames.size(); ++i)
    if (kMetaStructureNames[i] == name) return static_cast<int>(i);
  return std::nullopt;
}

std::optional<int> node_index(std::string_view name) {
  for (std::size_t i = 0; i < kNodeNames.size(); ++i)
    if (kNodeNames[i] == name) return static_cast<int>(i);
  return std::nullopt;
}

std::optional<Level> level_of(std::string_view name) {
  const auto index = node_index(name);
  if (!index) return std::nullopt;
  for (std::size_t level = 0; level < kLevelSpans.size(); ++level)
    if (static_cast<std::size_t>(*index) < kLevelSpans[level].second)
      return static_cast<Level>(level);
  return std::nullopt;
}

std::span<const std::string_view> names_at(Level level) {
  const auto [first, last] = kLevelSpans[static_cast<std::size_t>(level)];
  return std::span<const std::string_view>(kNodeNames).subspan(first, last - first);
}

std::span<const std::string_view> attribute_names(Level level) {
  if (level == Level::kLayout) return kLayoutAttributeNames;
  if (level == Level::kEntity) return kEntityAttributeNames;
  return {};
}

}  // namespace rave::grammar
