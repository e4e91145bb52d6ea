// IBM's problem JSON (ibm_json.hpp): the file parsed once with nlohmann-json, then each problem
// turned into an engine::Problem; what the file leaves out (configuration, level count) is
// settled for the whole file before the first problem is read.
#include "evaluation/ibm_json.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/model/configuration.hpp"

namespace rave::evaluation {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

constexpr std::size_t kMaxIbmBytes = std::size_t{4} << 30;
constexpr long long kMaxLevel = 1'000'000;

// Errors name the problem's key and the field: `problem "8123" rpm[3][0].Type`.
class Place {
 public:
  Place(const std::string& file, std::string key) : file_(file), key_(std::move(key)) {}
  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw InputError(file_, "problem \"" + key_ + "\"" + (field.empty() ? "" : " " + field), what);
  }

 private:
  const std::string& file_;
  std::string key_;
};

// An integer written as IBM writes it: a decimal string ("833"), or a JSON integer.
std::optional<long long> integer_of(const Json& v) {
  if (v.is_number_integer()) return v.get<long long>();
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  long long out = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return out;
}

int level_of(const Place& at, const Json& entity, const std::string& key, const std::string& path,
             long long lo, long long hi) {
  if (!entity.is_object() || !entity.contains(key)) at.fail(path + key, "missing");
  const auto v = integer_of(entity.at(key));
  if (!v || *v < lo || *v > hi)
    at.fail(path + key, "not an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
  return static_cast<int>(*v);
}

// --- What the whole file shares: the configuration and the variant. ---

// The configuration the file's name starts with (IBM's code dispatches on that name).
std::optional<engine::ConfigId> config_of_name(const std::string& stem) {
  std::optional<engine::ConfigId> best;
  std::size_t longest = 0;
  for (const engine::Configuration& c : engine::all_configurations())
    if (stem.starts_with(c.folder) && c.folder.size() > longest)
      best = c.id, longest = c.folder.size();
  return best;
}

// The slot of a layout at a bbox's centre [y, x, ...], or -1.
int slot_at(const engine::LayoutSpec& layout, const Json& bbox) {
  if (!bbox.is_array() || bbox.size() < 2 || !bbox[0].is_number() || !bbox[1].is_number())
    return -1;
  const double y = bbox[0].get<double>(), x = bbox[1].get<double>();
  for (std::size_t s = 0; s < layout.slots.size(); ++s)
    if (std::abs(layout.slots[s].y - y) < 5e-3 && std::abs(layout.slots[s].x - x) < 5e-3)
      return static_cast<int>(s);
  return -1;
}

bool is_grid(const Json& component) {
  return component.is_object() && component.contains("positions");
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

// The largest Type, Size, Color or confounder of the file, and whether all fit the original tables.
struct Levels {
  long long largest = 0;
  bool original = true;
};

void scan_levels(const Json& component, const engine::LayoutSpec& layout, Levels& levels) {
  for_each_entity(component, [&](const Json& e) {
    const std::array<std::pair<const char*, engine::Range>, 3> attrs{
        {{"Type", layout.type}, {"Size", layout.size}, {"Color", layout.color}}};
    for (const auto& [key, range] : attrs) {
      if (!e.is_object() || !e.contains(key)) continue;  // reported when the problem is read
      const auto v = integer_of(e.at(key));
      if (!v) continue;
      levels.largest = std::max(levels.largest, *v);
      levels.original = levels.original && *v >= range.min && *v <= range.max;
    }
    if (!e.is_object()) return;
    for (int k = 0; e.contains("Confounder" + std::to_string(k)); ++k)
      if (const auto v = integer_of(e.at("Confounder" + std::to_string(k)))) {
        levels.largest = std::max(levels.largest, *v);
        levels.original = levels.original && *v < engine::kDefaultConfounderLevels;
      }
  });
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

// What every problem of the file shares.
struct FileShape {
  engine::ConfigId config = engine::ConfigId::kCenterSingle;
  engine::Variant variant{};
};

int smallest_power_of_ten_above(long long largest) {
  long long v = 10;
  while (v <= largest) v *= 10;
  return static_cast<int>(std::min<long long>(v, kMaxLevel));
}

int file_values(const std::string& file, const Levels& levels) {
  const std::string stem = fs::path(file).stem().string();
  int values = 0;
  if (const auto named = maxval_of_name(stem))
    values = *named;
  else if (!levels.original)
    values = smallest_power_of_ten_above(levels.largest);
  if (values != 0 && (values < engine::kMinValues || values > engine::kMaxValues))
    throw InputError(file, "",
                     std::to_string(values) + " levels per attribute (maxval); rave takes " +
                         std::to_string(engine::kMinValues) + ".." +
                         std::to_string(engine::kMaxValues));
  return values;
}

// The grid side N of a problem of `panels` panels (N*N-1 context panels and 8 candidates).
std::optional<int> grid_of(std::size_t panels) {
  for (int n = engine::kMinGrid; n <= engine::kMaxGrid; ++n)
    if (static_cast<std::size_t>(engine::panel_count(n)) == panels) return n;
  return std::nullopt;
}

FileShape file_shape(const std::string& file, const Json& problems) {
  const Json& first = problems.begin().value();
  const Place at(file, problems.begin().key());
  if (!first.is_object() || !first.contains("rpm") || !first.at("rpm").is_array() ||
      first.at("rpm").empty())
    at.fail("rpm", "missing, or not a list of panels (an IBM problem file?)");
  const Json& rpm = first.at("rpm");
  FileShape shape{file_config(file, rpm[0]), {}};
  const auto grid = grid_of(rpm.size());
  if (!grid)
    at.fail("rpm", std::to_string(rpm.size()) + " panels; N x N matrices have N*N+7 (N = 3..10)");
  shape.variant.grid = *grid;
  const auto& components = engine::configuration(shape.config).components;
  Levels levels;
  for (const auto& [key, problem] : problems.items()) {
    if (!problem.is_object() || !problem.contains("rpm") || !problem.at("rpm").is_array()) continue;
    for (const Json& panel : problem.at("rpm"))
      for (std::size_t c = 0; c < components.size() && panel.is_array() && c < panel.size(); ++c)
        scan_levels(panel[c], components[c].layout, levels);
  }
  shape.variant.confounders = rpm[0].is_array() ? confounders_of(rpm[0][0]) : 0;
  shape.variant.values = file_values(file, levels);
  shape.variant.ibm_levels = shape.variant.values != 0;
  if (shape.variant.confounders > engine::kMaxConfounders)
    at.fail("rpm[0]", std::to_string(shape.variant.confounders) +
                          " confounders; rave takes up to " +
                          std::to_string(engine::kMaxConfounders));
  return shape;
}

// --- One problem. ---

struct Reader {
  const Place& at;
  const FileShape& shape;
};

engine::Entity read_entity(const Reader& r, const Json& e, const std::string& path,
                           const engine::LayoutSpec& layout, int slot, std::vector<int>& conf) {
  const engine::Variant& v = r.shape.variant;
  const bool wide = v.values != 0;
  // IBM's levels run from 0, and its Distribute_Three draws up to maxval itself (randint).
  const auto lo = [&](engine::Range range) { return wide ? 0LL : range.min; };
  const auto hi = [&](engine::Range range) { return wide ? v.values : range.max; };
  engine::Entity out{.slot = slot,
                     .type = level_of(r.at, e, "Type", path, lo(layout.type), hi(layout.type)),
                     .size = level_of(r.at, e, "Size", path, lo(layout.size), hi(layout.size)),
                     .color = level_of(r.at, e, "Color", path, lo(layout.color), hi(layout.color)),
                     .angle = level_of(r.at, e, "Angle", path, std::min(0, layout.angle.min),
                                       std::max<long long>(layout.angle.max, v.values))};
  for (int k = 0; k < v.confounders; ++k)
    conf.push_back(level_of(r.at, e, "Confounder" + std::to_string(k), path, 0,
                            wide ? v.values : v.confounder_levels() - 1));
  if (e.contains("Confounder" + std::to_string(v.confounders)))
    r.at.fail(
        path + "Confounder" + std::to_string(v.confounders),
        "more confounders than the file's first entity (" + std::to_string(v.confounders) + ")");
  return out;
}

engine::ComponentPanel read_component(const Reader& r, const Json& j, const std::string& path,
                                      const engine::LayoutSpec& layout) {
  engine::ComponentPanel out;
  if (layout.slots.size() == 1) {
    if (!j.is_object() || is_grid(j)) r.at.fail(path, "expected one entity (a lone shape)");
    out.entities.push_back(read_entity(r, j, path + ".", layout, 0, out.confounders));
    return out;
  }
  if (!is_grid(j) || !j.contains("entities"))
    r.at.fail(path, "expected a grid ({\"positions\": [...], \"entities\": [...]})");
  const Json& positions = j.at("positions");
  const Json& entities = j.at("entities");
  if (!positions.is_array() || !entities.is_array() || positions.size() != entities.size() ||
      entities.empty() || entities.size() > layout.slots.size())
    r.at.fail(path, "\"positions\" and \"entities\" must be lists of one length, 1.." +
                        std::to_string(layout.slots.size()));
  for (std::size_t i = 0; i < entities.size(); ++i) {
    const std::string at = path + ".entities[" + std::to_string(i) + "].";
    const int slot = slot_at(layout, positions[i]);
    if (slot < 0)
      r.at.fail(path + ".positions[" + std::to_string(i) + "]",
                "not a position of " + std::string(layout.name));
    for (const engine::Entity& e : out.entities)
      if (e.slot == slot) r.at.fail(path + ".positions[" + std::to_string(i) + "]", "used twice");
    out.entities.push_back(read_entity(r, entities[i], at, layout, slot, out.confounders));
  }
  return out;
}

engine::Panel read_panel(const Reader& r, const Json& j, const std::string& path) {
  const auto& components = engine::configuration(r.shape.config).components;
  if (!j.is_array() || j.size() != components.size())
    r.at.fail(path, "expected a list of " + std::to_string(components.size()) + " component(s) (" +
                        std::string(engine::configuration(r.shape.config).folder) + ")");
  engine::Panel panel;
  for (std::size_t c = 0; c < components.size(); ++c)
    panel.components.push_back(
        read_component(r, j[c], path + "[" + std::to_string(c) + "]", components[c].layout));
  return panel;
}

// {"Number/Position": "Constant", "Type": ..., "Size": ..., "Color": ...}: names, no parameters.
engine::RuleGroup read_rule_group(const Reader& r, const Json& j, const std::string& path) {
  engine::RuleGroup group;
  const std::array<const char*, 4> keys{"Number/Position", "Type", "Size", "Color"};
  if (!j.is_object()) r.at.fail(path, "expected {\"Number/Position\": ..., \"Type\": ...}");
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const char* key = k == 0 && !j.contains(keys[0]) && j.contains("Number")     ? "Number"
                      : k == 0 && !j.contains(keys[0]) && j.contains("Position") ? "Position"
                                                                                 : keys[k];
    if (!j.contains(key) || !j.at(key).is_string()) r.at.fail(path + "." + keys[k], "missing");
    const auto name = engine::parse_rule_name(j.at(key).get<std::string>());
    if (!name)
      r.at.fail(path + "." + key,
                "not a rule (Constant, Progression, Arithmetic, Distribute_Three)");
    group.rules[k] = {*name, *engine::parse_rule_attr(key), 0, false};
  }
  return group;
}

std::vector<engine::RuleGroup> read_rules(const Reader& r, const Json& problem) {
  const std::size_t components = engine::configuration(r.shape.config).components.size();
  if (!problem.contains("rules")) return {};
  const Json& rules = problem.at("rules");
  if (!rules.is_array() || rules.size() != components)
    r.at.fail("rules", "expected a list of " + std::to_string(components) + " rule group(s)");
  std::vector<engine::RuleGroup> out;
  for (std::size_t c = 0; c < components; ++c)
    out.push_back(read_rule_group(r, rules[c], "rules[" + std::to_string(c) + "]"));
  return out;
}

engine::Problem read_one(const Reader& r, const Json& j) {
  if (!j.is_object() || !j.contains("rpm") || !j.at("rpm").is_array())
    r.at.fail("rpm", "missing, or not a list of panels");
  const Json& rpm = j.at("rpm");
  engine::Problem p;
  p.config = r.shape.config;
  p.variant = r.shape.variant;
  const auto panels = static_cast<std::size_t>(engine::panel_count(p.variant.grid));
  if (rpm.size() != panels)
    r.at.fail("rpm", std::to_string(rpm.size()) + " panels, the file's first problem has " +
                         std::to_string(panels));
  p.context.resize(static_cast<std::size_t>(p.variant.context_panels()));
  for (std::size_t i = 0; i < panels; ++i)
    p.panel(static_cast<int>(i)) = read_panel(r, rpm[i], "rpm[" + std::to_string(i) + "]");
  p.rules = read_rules(r, j);
  if (j.contains("target")) {
    const auto t = integer_of(j.at("target"));
    if (!t || *t < 0 || *t >= engine::kCandidates) r.at.fail("target", "not a candidate (0..7)");
    p.target = static_cast<int>(*t);
  }
  return p;
}

// IBM's solver draws its test problems from 8000..9999 and in-context examples from 0..5999.
std::string ibm_split(const std::string& key) {
  long long k = 0;
  const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), k);
  if (ec != std::errc() || end != key.data() + key.size()) return "";
  return k >= 8000 && k <= 9999 ? "test" : k >= 6000 && k < 8000 ? "val" : "train";
}

// The keys in order: by number when every key is one, else as text.
std::vector<std::string> ordered_keys(const Json& problems) {
  std::vector<std::pair<long long, std::string>> keys;
  bool numeric = true;
  for (const auto& item : problems.items()) {
    long long k = 0;
    const std::string& key = item.key();
    const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), k);
    numeric = numeric && ec == std::errc() && end == key.data() + key.size();
    keys.emplace_back(k, key);
  }
  if (numeric) std::stable_sort(keys.begin(), keys.end());  // nlohmann's objects sort as text
  std::vector<std::string> out;
  for (auto& [_, key] : keys) out.push_back(std::move(key));
  return out;
}

}  // namespace

bool is_ibm_json(const fs::path& path) { return path.extension() == ".json"; }

std::vector<IbmProblem> parse_ibm_json(std::string_view text, const std::string& file) {
  Json problems;
  try {
    problems = Json::parse(text);
  } catch (const Json::parse_error& e) {
    throw InputError(file, "byte " + std::to_string(e.byte), "not JSON");
  }
  if (!problems.is_object() || problems.empty())
    throw InputError(file, "",
                     "not an IBM problem file: expected an object of problems keyed by number "
                     "({\"0\": {\"rpm\": [...], \"target\": ...}, ...})");
  const FileShape shape = file_shape(file, problems);
  std::vector<IbmProblem> out;
  out.reserve(problems.size());
  for (const std::string& key : ordered_keys(problems)) {
    const Place at(file, key);
    out.push_back({key, ibm_split(key), read_one(Reader{at, shape}, problems.at(key))});
  }
  return out;
}

std::vector<IbmProblem> read_ibm_json(const fs::path& path) {
  return parse_ibm_json(read_file(path, kMaxIbmBytes), path.string());
}

}  // namespace rave::evaluation
