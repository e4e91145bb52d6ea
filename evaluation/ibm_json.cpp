// IBM's problem JSON (ibm_json.hpp): the file indexed in one pass, a problem at a time
// (internal/json_members.hpp: its key checked, its text parsed by nlohmann-json and dropped, the
// file's shape gathered, internal/ibm_shape.hpp); then each problem read again by its place and
// turned into an engine::Problem when asked.
#include "evaluation/ibm_json.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include "common/error.hpp"
#include "evaluation/internal/ibm_shape.hpp"
#include "evaluation/internal/json_members.hpp"

namespace rave::evaluation {
namespace {

using internal::FileShape;
using internal::integer_of;
using internal::is_grid;
using internal::Json;
using internal::slot_at;
namespace fs = std::filesystem;

// One problem's text at most (IBM's largest, 10 x 10 with 10 confounders, is under 100 KB).
constexpr std::size_t kMaxProblemBytes = std::size_t{256} << 20;

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

int level_of(const Place& at, const Json& entity, const std::string& key, const std::string& path,
             long long lo, long long hi) {
  if (!entity.is_object() || !entity.contains(key)) at.fail(path + key, "missing");
  const auto v = integer_of(entity.at(key));
  if (!v || *v < lo || *v > hi)
    at.fail(path + key, "not an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
  return static_cast<int>(*v);
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

// A key as IBM writes a problem's number (str(k): "0", "8123"), or nullopt.
std::optional<std::uint64_t> problem_number(const std::string& key) {
  if (key.empty() || key.size() > 18 || (key[0] == '0' && key.size() > 1)) return std::nullopt;
  std::uint64_t k = 0;
  const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), k);
  if (ec != std::errc() || end != key.data() + key.size()) return std::nullopt;
  return k;
}

// A member's text as JSON; a syntax error names its line and column in the file.
Json parse_member(const std::string& file, const std::string& text,
                  const internal::TextPlace& start) {
  try {
    return Json::parse(text);
  } catch (const Json::parse_error& e) {
    const std::size_t byte = e.byte == 0 ? 0 : e.byte - 1;  // nlohmann counts from 1
    const std::string_view before = std::string_view(text).substr(0, byte);
    throw InputError(file, line_col(start.position.after(before)), "not JSON");
  }
}

}  // namespace

IbmFile::IbmFile(const fs::path& path)
    : source_(std::make_unique<internal::ByteSource>(internal::ByteSource::file(path))),
      name_(path.string()) {
  index();
}

IbmFile::IbmFile(std::string text, const std::string& file)
    : source_(std::make_unique<internal::ByteSource>(
          internal::ByteSource::text(std::move(text), file))),
      name_(file) {
  index();
}

IbmFile::~IbmFile() = default;
IbmFile::IbmFile(IbmFile&&) noexcept = default;
IbmFile& IbmFile::operator=(IbmFile&&) noexcept = default;

// One pass: every key checked, every problem's text parsed (and its values scanned when the
// level count is not in the name), only the key and the place kept.
void IbmFile::index() {
  internal::ShapeScan scan(name_);
  internal::for_each_member(
      *source_, kMaxProblemBytes, [&](const internal::Member& m, const std::string& text) {
        const auto key = problem_number(m.key);
        if (!key)
          throw InputError(name_, line_col(m.key_at.position),
                           "the key \"" + m.key +
                               "\" is no problem number (IBM's files key problems 0, 1, 2, ...)");
        index_.push_back({*key, m.value_at.offset, static_cast<std::uint32_t>(m.length),
                          static_cast<std::uint32_t>(m.value_at.position.line),
                          static_cast<std::uint32_t>(m.value_at.position.column)});
        if (index_.size() > 1 && !scan.needs_levels()) {
          if (!Json::accept(text)) parse_member(name_, text, m.value_at);
          return;
        }
        const Json problem = parse_member(name_, text, m.value_at);
        if (index_.size() == 1) scan.first(m.key, problem);
        if (scan.needs_levels()) scan.levels(problem);
      });
  if (index_.empty())
    throw InputError(name_, "",
                     "not an IBM problem file: expected an object of problems keyed by number "
                     "({\"0\": {\"rpm\": [...], \"target\": ...}, ...})");
  std::stable_sort(index_.begin(), index_.end(),
                   [](const Entry& a, const Entry& b) { return a.key < b.key; });
  for (std::size_t i = 1; i < index_.size(); ++i)
    if (index_[i].key == index_[i - 1].key)  // the later one in the file (a stable sort)
      throw InputError(name_, line_col(TextPosition{index_[i].line, index_[i].col}),
                       "problem \"" + key(i) + "\" comes twice (first at line " +
                           std::to_string(index_[i - 1].line) + ")");
  const FileShape shape = scan.finish();
  config_ = shape.config;
  variant_ = shape.variant;
}

IbmProblem IbmFile::read(std::size_t i) const {
  const Entry& e = index_.at(i);
  std::string text;
  source_->read(e.offset, e.length, text);
  const Json j = parse_member(name_, text, {e.offset, {e.line, e.col}});
  IbmProblem out{.key = key(i), .split = {}, .problem = {}};
  out.split = ibm_split(out.key);
  const Place at(name_, out.key);
  const FileShape shape{config_, variant_};
  out.problem = read_one(Reader{at, shape}, j);
  return out;
}

bool is_ibm_json(const fs::path& path) { return path.extension() == ".json"; }

bool holds_ibm_problems(const fs::path& path) {
  const internal::ByteSource source = internal::ByteSource::file(path);
  std::string head;
  source.read(0, static_cast<std::size_t>(std::min<std::uint64_t>(source.size(), 4096)), head);
  const std::size_t brace = head.find_first_not_of(" \t\r\n");
  if (brace == std::string::npos || head[brace] != '{') return false;
  const std::size_t key = head.find_first_not_of(" \t\r\n", brace + 1);
  return key == std::string::npos || head.compare(key, 4, "\"id\"") != 0;
}

std::vector<IbmProblem> parse_ibm_json(std::string_view text, const std::string& file) {
  const IbmFile problems(std::string(text), file);
  std::vector<IbmProblem> out;
  out.reserve(problems.size());
  for (std::size_t i = 0; i < problems.size(); ++i) out.push_back(problems.read(i));
  return out;
}

std::vector<IbmProblem> read_ibm_json(const fs::path& path) {
  const IbmFile problems(path);
  std::vector<IbmProblem> out;
  out.reserve(problems.size());
  for (std::size_t i = 0; i < problems.size(); ++i) out.push_back(problems.read(i));
  return out;
}

}  // namespace rave::evaluation
