// The shape an IBM JSON file's problems share (internal/ibm_shape.hpp).
#include "evaluation/internal/ibm_shape.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "common/error.hpp"

namespace rave::evaluation::internal {
namespace {

namespace fs = std::filesystem;

constexpr long long kMaxLevel = 1'000'000;

// The configuration the file's name starts with (IBM's code dispatches on that name).
std::optional<engine::ConfigId> config_of_name(const std::string& stem) {
  std::optional<engine::ConfigId> best;
  std::size_t longest = 0;
  for (const engine::Configuration& c : engine::all_configurations())
    if (stem.starts_with(c.folder) && c.folder.size() > longest)
      best = c.id, longest = c.folder.size();
  return best;
}

// Whether every position of a grid component lies on `layout`.
bool fits_layout(const Json& component, const engine::LayoutSpec& layout) {
  const Json& positions = component.at("positions");
  if (!positions.is_array()) return false;
  return std::all_of(positions.begin(), positions.end(),
                     [&](const Json& p) { return slot_at(layout, p) >= 0; });
}

// The configuration the panels show, when they tell; `first` is the first problem's panel 0.
std::optional<engine::ConfigId> config_of_panels(const Json& first) {
  using engine::ConfigId;
  if (!first.is_array()) return std::nullopt;
  if (first.size() == 1 && !is_grid(first[0])) return ConfigId::kCenterSingle;
  if (first.size() == 1)
    for (const ConfigId id : {ConfigId::kDistributeFour, ConfigId::kDistributeNine})
      if (fits_layout(first[0], engine::configuration(id).components[0].layout)) return id;
  if (first.size() == 2 && is_grid(first[1])) return ConfigId::kOutInGrid;
  return std::nullopt;
}

engine::ConfigId file_config(const std::string& file, const Json& first_panel) {
  if (const auto named = config_of_name(fs::path(file).stem().string())) return *named;
  if (const auto seen = config_of_panels(first_panel)) return *seen;
  throw InputError(file, "",
                   "cannot tell the configuration: two lone shapes per panel may be L-R, U-D or "
                   "O-IC; name the file after it as IBM's code does (e.g. "
                   "left_center_single_right_center_single.json)");
}

// "maxval_1000" in the file's name: IBM's level count.
std::optional<int> maxval_of_name(const std::string& stem) {
  const std::size_t at = stem.find("maxval_");
  if (at == std::string::npos) return std::nullopt;
  int v = 0;
  const char* begin = stem.data() + at + 7;
  const auto [end, ec] = std::from_chars(begin, stem.data() + stem.size(), v);
  if (ec != std::errc() || end == begin) return std::nullopt;
  return v;
}

// Every entity of a component, lone or in a grid.
template <class Visit>
void for_each_entity(const Json& component, Visit&& visit) {
  if (!is_grid(component)) return visit(component);
  const Json& entities = component.value("entities", Json::array());
  if (entities.is_array())
    for (const Json& e : entities) visit(e);
}

// K of the "Confounder0".."ConfounderK-1" keys of a component's first entity.
int confounders_of(const Json& component) {
  int k = -1;
  for_each_entity(component, [&](const Json& e) {
    if (k >= 0 || !e.is_object()) return;
    for (k = 0; e.contains("Confounder" + std::to_string(k));) ++k;
  });
  return std::max(k, 0);
}

int smallest_power_of_ten_above(long long largest) {
  long long v = 10;
  while (v <= largest) v *= 10;
  return static_cast<int>(std::min<long long>(v, kMaxLevel));
}

// The grid side N of a problem of `panels` panels (N*N-1 context panels and 8 candidates).
std::optional<int> grid_of(std::size_t panels) {
  for (int n = engine::kMinGrid; n <= engine::kMaxGrid; ++n)
    if (static_cast<std::size_t>(engine::panel_count(n)) == panels) return n;
  return std::nullopt;
}

[[noreturn]] void fail(const std::string& file, const std::string& key, const std::string& field,
                       const std::string& what) {
  throw InputError(file, "problem \"" + key + "\" " + field, what);
}

}  // namespace

std::optional<long long> integer_of(const Json& v) {
  if (v.is_number_integer()) return v.get<long long>();
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  long long out = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return out;
}

bool is_grid(const Json& component) {
  return component.is_object() && component.contains("positions");
}

int slot_at(const engine::LayoutSpec& layout, const Json& bbox) {
  if (!bbox.is_array() || bbox.size() < 2 || !bbox[0].is_number() || !bbox[1].is_number())
    return -1;
  const double y = bbox[0].get<double>(), x = bbox[1].get<double>();
  for (std::size_t s = 0; s < layout.slots.size(); ++s)
    if (std::abs(layout.slots[s].y - y) < 5e-3 && std::abs(layout.slots[s].x - x) < 5e-3)
      return static_cast<int>(s);
  return -1;
}

ShapeScan::ShapeScan(const std::string& file)
    : file_(file), named_values_(maxval_of_name(fs::path(file).stem().string())) {}

void ShapeScan::first(const std::string& key, const Json& problem) {
  first_key_ = key;
  if (!problem.is_object() || !problem.contains("rpm") || !problem.at("rpm").is_array() ||
      problem.at("rpm").empty())
    fail(file_, key, "rpm", "missing, or not a list of panels (an IBM problem file?)");
  const Json& rpm = problem.at("rpm");
  shape_.config = file_config(file_, rpm[0]);
  const auto grid = grid_of(rpm.size());
  if (!grid)
    fail(file_, key, "rpm",
         std::to_string(rpm.size()) + " panels; N x N matrices have N*N+7 (N = 3..10)");
  shape_.variant.grid = *grid;
  shape_.variant.confounders = rpm[0].is_array() ? confounders_of(rpm[0][0]) : 0;
  if (shape_.variant.confounders > engine::kMaxConfounders)
    fail(file_, key, "rpm[0]",
         std::to_string(shape_.variant.confounders) + " confounders; rave takes up to " +
             std::to_string(engine::kMaxConfounders));
}

void ShapeScan::levels(const Json& problem) {
  if (!problem.is_object() || !problem.contains("rpm") || !problem.at("rpm").is_array()) return;
  const auto& components = engine::configuration(shape_.config).components;
  const auto visit = [&](const Json& e, const engine::LayoutSpec& layout) {
    if (!e.is_object()) return;  // reported when the problem is read
    const std::array<std::pair<const char*, engine::Range>, 3> attrs{
        {{"Type", layout.type}, {"Size", layout.size}, {"Color", layout.color}}};
    for (const auto& [key, range] : attrs)
      if (const auto it = e.find(key); it != e.end())
        if (const auto v = integer_of(*it)) {
          largest_ = std::max(largest_, *v);
          original_ = original_ && *v >= range.min && *v <= range.max;
        }
    for (int k = 0; e.contains("Confounder" + std::to_string(k)); ++k)
      if (const auto v = integer_of(e.at("Confounder" + std::to_string(k)))) {
        largest_ = std::max(largest_, *v);
        original_ = original_ && *v < engine::kDefaultConfounderLevels;
      }
  };
  for (const Json& panel : problem.at("rpm"))
    for (std::size_t c = 0; c < components.size() && panel.is_array() && c < panel.size(); ++c)
      for_each_entity(panel[c], [&](const Json& e) { visit(e, components[c].layout); });
}

FileShape ShapeScan::finish() const {
  FileShape shape = shape_;
  int values = named_values_.value_or(0);
  if (!named_values_ && !original_) values = smallest_power_of_ten_above(largest_);
  if (values != 0 && (values < engine::kMinValues || values > engine::kMaxValues))
    throw InputError(file_, "",
                     std::to_string(values) + " levels per attribute (maxval); rave takes " +
                         std::to_string(engine::kMinValues) + ".." +
                         std::to_string(engine::kMaxValues));
  shape.variant.values = values;
  shape.variant.ibm_levels = values != 0;
  return shape;
}

}  // namespace rave::evaluation::internal
