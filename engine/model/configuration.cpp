#include "engine/model/configuration.hpp"

#include "common/error.hpp"

namespace rave::engine {
namespace {

constexpr Range kTypeNoNone{1, 5};

LayoutSpec layout(std::string_view name, std::vector<Slot> slots, Range number) {
  return LayoutSpec{.name = name,
                    .slots = std::move(slots),
                    .number = number,
                    .type = kTypeNoNone,
                    .size = kDefaultSizeRange,
                    .color = kDefaultColorRange,
                    .angle = kDefaultAngleRange};
}

std::vector<Slot> nine_slots() {
  std::vector<Slot> slots;
  for (double y : {0.16, 0.5, 0.83})
    for (double x : {0.16, 0.5, 0.83}) slots.push_back({y, x, 0.33, 0.33});
  return slots;
}

LayoutSpec out_center_single() {
  LayoutSpec out = layout("Out_Center_Single", {{0.5, 0.5, 1, 1}}, {0, 0});
  out.size = {3, 5};
  out.color = {0, 0};
  return out;
}

std::vector<Configuration> build_all() {
  std::vector<Configuration> all;
  all.push_back({ConfigId::kCenterSingle,
                 "center_single",
                 "Center",
                 "Singleton",
                 {{0, "Grid", layout("Center_Single", {{0.5, 0.5, 1, 1}}, {0, 0})}}});
  all.push_back({ConfigId::kDistributeFour,
                 "distribute_four",
                 "2x2Grid",
                 "Singleton",
                 {{0, "Grid",
                   layout("Distribute_Four",
                          {{0.25, 0.25, 0.5, 0.5},
                           {0.25, 0.75, 0.5, 0.5},
                           {0.75, 0.25, 0.5, 0.5},
                           {0.75, 0.75, 0.5, 0.5}},
                          {0, 3})}}});
  all.push_back({ConfigId::kDistributeNine,
                 "distribute_nine",
                 "3x3Grid",
                 "Singleton",
                 {{0, "Grid", layout("Distribute_Nine", nine_slots(), {0, 8})}}});
  all.push_back({ConfigId::kLeftRight,
                 "left_center_single_right_center_single",
                 "L-R",
                 "Left_Right",
                 {{0, "Left", layout("Left_Center_Single", {{0.5, 0.25, 0.5, 0.5}}, {0, 0})},
                  {1, "Right", layout("Right_Center_Single", {{0.5, 0.75, 0.5, 0.5}}, {0, 0})}}});
  all.push_back({ConfigId::kUpDown,
                 "up_center_single_down_center_single",
                 "U-D",
                 "Up_Down",
                 {{0, "Up", layout("Up_Center_Single", {{0.25, 0.5, 0.5, 0.5}}, {0, 0})},
                  {1, "Down", layout("Down_Center_Single", {{0.75, 0.5, 0.5, 0.5}}, {0, 0})}}});
  all.push_back({ConfigId::kOutInCenter,
                 "in_center_single_out_center_single",
                 "O-IC",
                 "Out_In",
                 {{0, "Out", out_center_single()},
                  {1, "In", layout("In_Center_Single", {{0.5, 0.5, 0.33, 0.33}}, {0, 0})}}});
  LayoutSpec in_grid = layout("In_Distribute_Four",
                              {{0.42, 0.42, 0.15, 0.15},
                               {0.42, 0.58, 0.15, 0.15},
                               {0.58, 0.42, 0.15, 0.15},
                               {0.58, 0.58, 0.15, 0.15}},
                              {0, 3});
  in_grid.size = {2, 5};
  all.push_back({ConfigId::kOutInGrid,
                 "in_distribute_four_out_center_single",
                 "O-IG",
                 "Out_In",
                 {{0, "Out", out_center_single()}, {1, "In", std::move(in_grid)}}});
  return all;
}

const std::vector<Configuration>& table() {
  static const std::vector<Configuration> all = build_all();
  return all;
}

constexpr std::array<std::array<std::string_view, 2>, kNumConfigs> kAliases{{
    {"center", "cs"},
    {"2x2", "d4"},
    {"3x3", "d9"},
    {"lr", "l-r"},
    {"ud", "u-d"},
    {"oic", "o-ic"},
    {"oig", "o-ig"},
}};

}  // namespace

const Configuration& configuration(ConfigId id) {
  const int index = config_index(id);
  RAVE_CHECK(index >= 0 && index < kNumConfigs, "configuration id out of range");
  return table()[static_cast<std::size_t>(index)];
}

std::span<const Configuration> all_configurations() { return table(); }

std::optional<ConfigId> find_configuration(std::string_view name) {
  for (const auto& c : table())
    if (name == c.folder || name == c.paper_name) return c.id;
  for (std::size_t i = 0; i < kAliases.size(); ++i)
    for (auto alias : kAliases[i])
      if (name == alias) return static_cast<ConfigId>(i);
  return std::nullopt;
}

ConfigId configuration_named(std::string_view name) {
  const auto id = find_configuration(name);
  if (!id)
    throw UsageError("unknown configuration '" + std::string(name) +
                     "'; known: " + configuration_names());
  return *id;
}

std::span<const std::string_view> configuration_aliases(ConfigId id) {
  return kAliases[static_cast<std::size_t>(config_index(id))];
}

std::string configuration_names() {
  std::string out;
  for (const auto& c : table()) {
    if (!out.empty()) out += ", ";
    out += std::string(c.folder) + " (" + std::string(c.paper_name) + ")";
  }
  return out;
}

}  // namespace rave::engine
