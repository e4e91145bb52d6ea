// The JSON form of a symbolic problem (internal/problem_json.hpp).
#include "evaluation/internal/problem_json.hpp"

#include "common/error.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/variant.hpp"

namespace rave::evaluation::internal {
namespace {

using Json = nlohmann::json;

void write_entity(JsonWriter& w, const engine::Problem& problem, const engine::ComponentPanel& cp,
                  std::size_t i) {
  const engine::Entity& e = cp.entities[i];
  w.begin_object();
  w.key("slot").value(e.slot).key("type").value(e.type).key("size").value(e.size);
  w.key("color").value(e.color).key("angle").value(e.angle);
  const auto k = static_cast<std::size_t>(problem.variant.confounders);
  if (k > 0 && cp.confounders.size() >= (i + 1) * k) {
    w.key("confounders").begin_array();
    for (std::size_t j = i * k; j < (i + 1) * k; ++j) w.value(cp.confounders[j]);
    w.end_array();
  }
  w.end_object();
}

void write_panel(JsonWriter& w, const engine::Problem& problem, const engine::Panel& panel) {
  w.begin_array();
  for (const engine::ComponentPanel& cp : panel.components) {
    w.begin_object().key("uniformity").value(cp.uniformity).key("entities").begin_array();
    for (std::size_t i = 0; i < cp.entities.size(); ++i) write_entity(w, problem, cp, i);
    w.end_array().end_object();
  }
  w.end_array();
}

// The variant's options (docs/variants.md), only for a problem that is not the original's.
void write_variant(JsonWriter& w, const engine::Problem& problem) {
  const engine::Variant& v = problem.variant;
  w.begin_object().key("grid").value(v.grid).key("values").value(v.values);
  w.key("confounders").value(v.confounders).key("regime").value(engine::regime_name(v.regime));
  w.key("hold_out").value(engine::hold_out_text(v));
  if (v.ibm_levels) w.key("levels").value("ibm");
  w.key("split");
  if (problem.split)
    w.value(engine::split_name(*problem.split));
  else
    w.null();
  w.end_object();
}

void write_components(JsonWriter& w, engine::ConfigId config) {
  w.begin_array();
  for (const auto& c : engine::configuration(config).components) {
    w.begin_object().key("name").value(c.name).key("layout").value(c.layout.name);
    w.key("slots").begin_array();
    for (const auto& s : c.layout.slots)
      w.begin_array().value(s.y).value(s.x).value(s.h).value(s.w).end_array();
    w.end_array().end_object();
  }
  w.end_array();
}

void write_rules(JsonWriter& w, const std::vector<engine::RuleGroup>& groups) {
  w.begin_array();
  for (const auto& g : groups) {
    w.begin_array();
    for (const auto& r : g.rules) {
      w.begin_object().key("name").value(engine::rule_name_text(r.name));
      w.key("attr").value(engine::rule_attr_text(r.attr)).key("value");
      if (r.value_known)
        w.value(r.value);
      else
        w.null();
      w.end_object();
    }
    w.end_array();
  }
  w.end_array();
}

void write_modified(
    JsonWriter& w,
    const std::array<std::vector<engine::Modification>, engine::kCandidates>& modified) {
  w.begin_array();
  for (const auto& list : modified) {
    w.begin_array();
    for (const auto& m : list)
      w.begin_object()
          .key("component")
          .value(m.component)
          .key("attr")
          .value(engine::attr_name(m.attr))
          .end_object();
    w.end_array();
  }
  w.end_array();
}

// Reading: each accessor names the field's path in its error.
class Reader {
 public:
  explicit Reader(const JsonPlace& place) : place_(place) {}
  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw InputError(place_.file, "line " + std::to_string(place_.line),
                     "\"" + path + "\": " + what);
  }
  const Json& field(const Json& j, const std::string& key, const std::string& path) const {
    if (!j.is_object() || !j.contains(key)) fail(path + key, "missing");
    return j.at(key);
  }
  const Json& array(const Json& j, const std::string& path, std::size_t size) const {
    if (!j.is_array()) fail(path, "not a list");
    if (size != kAny && j.size() != size)
      fail(path, std::to_string(j.size()) + " entries, " + std::to_string(size) + " expected");
    return j;
  }
  int integer(const Json& j, const std::string& key, const std::string& path, int lo,
              int hi) const {
    const Json& v = field(j, key, path);
    if (!v.is_number_integer() || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi)
      fail(path + key, "not an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
    return v.get<int>();
  }
  std::string text(const Json& j, const std::string& key, const std::string& path) const {
    const Json& v = field(j, key, path);
    if (!v.is_string()) fail(path + key, "not a string");
    return v.get<std::string>();
  }
  static constexpr std::size_t kAny = static_cast<std::size_t>(-1);

 private:
  const JsonPlace& place_;
};

constexpr int kMaxLevel = 1'000'000;  // values of larger variants are not bounded by RAVEN's tables

engine::Entity read_entity(const Reader& r, const Json& j, const std::string& path, int slots) {
  return engine::Entity{.slot = r.integer(j, "slot", path, 0, slots - 1),
                        .type = r.integer(j, "type", path, 0, kMaxLevel),
                        .size = r.integer(j, "size", path, 0, kMaxLevel),
                        .color = r.integer(j, "color", path, 0, kMaxLevel),
                        .angle = r.integer(j, "angle", path, 0, kMaxLevel)};
}

engine::Panel read_panel(const Reader& r, const Json& j, const std::string& path,
                         const engine::Configuration& config) {
  engine::Panel panel;
  r.array(j, path, config.components.size());
  for (std::size_t c = 0; c < config.components.size(); ++c) {
    const std::string at = path + "[" + std::to_string(c) + "].";
    engine::ComponentPanel cp{.uniformity = r.integer(j[c], "uniformity", at, 0, kMaxLevel),
                              .entities = {}};
    const Json& entities = r.array(r.field(j[c], "entities", at), at + "entities", Reader::kAny);
    const int slots = static_cast<int>(config.components[c].layout.slots.size());
    for (std::size_t e = 0; e < entities.size(); ++e)
      cp.entities.push_back(
          read_entity(r, entities[e], at + "entities[" + std::to_string(e) + "].", slots));
    panel.components.push_back(std::move(cp));
  }
  return panel;
}

engine::Rule read_rule(const Reader& r, const Json& j, const std::string& path) {
  const auto name = engine::parse_rule_name(r.text(j, "name", path));
  const auto attr = engine::parse_rule_attr(r.text(j, "attr", path));
  if (!name)
    r.fail(path + "name", "not a rule name (Constant, Progression, Arithmetic, Distribute_Three)");
  if (!attr)
    r.fail(path + "attr",
           "not a rule attribute (Number/Position, Number, Position, Type, Size, Color)");
  const Json& value = r.field(j, "value", path);
  if (value.is_null()) return {*name, *attr, 0, false};
  return {*name, *attr, r.integer(j, "value", path, -kMaxLevel, kMaxLevel), true};
}

std::vector<engine::RuleGroup> read_rules(const Reader& r, const Json& j, std::size_t components) {
  std::vector<engine::RuleGroup> groups(components);
  r.array(j, "rules", components);
  for (std::size_t c = 0; c < components; ++c) {
    const std::string at = "rules[" + std::to_string(c) + "]";
    r.array(j[c], at, 4);
    for (std::size_t k = 0; k < 4; ++k)
      groups[c].rules[k] = read_rule(r, j[c][k], at + "[" + std::to_string(k) + "].");
  }
  return groups;
}

std::array<std::vector<engine::Modification>, engine::kCandidates> read_modified(const Reader& r,
                                                                                 const Json& j,
                                                                                 int components) {
  std::array<std::vector<engine::Modification>, engine::kCandidates> out;
  r.array(j, "modified", out.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::string at = "modified[" + std::to_string(i) + "]";
    for (std::size_t k = 0; k < r.array(j[i], at, Reader::kAny).size(); ++k) {
      const std::string path = at + "[" + std::to_string(k) + "].";
      const auto attr = engine::parse_attr(r.text(j[i][k], "attr", path));
      if (!attr) r.fail(path + "attr", "not an attribute name");
      out[i].push_back({r.integer(j[i][k], "component", path, 0, components - 1), *attr});
    }
  }
  return out;
}

template <class Panels>
void read_panels(const Reader& r, const Json& in, const char* key,
                 const engine::Configuration& config, Panels& panels) {
  const Json& list = r.array(r.field(in, key, ""), key, panels.size());
  for (std::size_t i = 0; i < panels.size(); ++i)
    panels[i] = read_panel(r, list[i], std::string(key) + "[" + std::to_string(i) + "]", config);
}

// "variant": grid, values, confounders, regime, hold_out, split (variant_json).
void read_variant(const Reader& r, const Json& j, engine::Problem& p) {
  engine::Variant& v = p.variant;
  v.grid = r.integer(j, "grid", "variant.", engine::kMinGrid, engine::kMaxGrid);
  v.values = r.integer(j, "values", "variant.", 0, engine::kMaxValues);
  v.confounders = r.integer(j, "confounders", "variant.", 0, engine::kMaxConfounders);
  const auto regime = engine::parse_regime(r.text(j, "regime", "variant."));
  if (!regime) r.fail("variant.regime", "not a regime (" + engine::regime_names() + ")");
  v.regime = *regime;
  if (j.contains("levels")) {
    if (r.text(j, "levels", "variant.") != "ibm") r.fail("variant.levels", "not \"ibm\"");
    v.ibm_levels = true;
  }
  try {
    if (const std::string hold_out = r.text(j, "hold_out", "variant."); !hold_out.empty())
      engine::parse_hold_out(hold_out, v.regime, v);
    engine::check_variant(v);
  } catch (const UsageError& e) {
    r.fail("variant", e.what());
  }
  const Json& split = r.field(j, "split", "variant.");
  if (!split.is_null()) p.split = engine::parse_split(r.text(j, "split", "variant."));
  if (engine::is_value_regime(v.regime) && !p.split)
    r.fail("variant.split", "a problem of a value regime names its split");
}

}  // namespace

void write_problem_fields(JsonWriter& w, const engine::Problem& problem, bool with_answer_hints) {
  if (!problem.variant.is_original()) write_variant(w.key("variant"), problem);
  write_components(w.key("components"), problem.config);
  if (with_answer_hints) write_rules(w.key("rules"), problem.rules);
  w.key("context").begin_array();
  for (const auto& p : problem.context) write_panel(w, problem, p);
  w.end_array().key("candidates").begin_array();
  for (const auto& p : problem.candidates) write_panel(w, problem, p);
  w.end_array();
  if (with_answer_hints && problem.modified) write_modified(w.key("modified"), *problem.modified);
}

engine::Problem problem_from_fields(const Json& in, const JsonPlace& place) {
  const Reader r(place);
  const std::string name = r.text(in, "configuration", "");
  const auto id = engine::find_configuration(name);
  if (!id) r.fail("configuration", "unknown configuration '" + name + "'");
  const engine::Configuration& config = engine::configuration(*id);
  engine::Problem p;
  p.config = *id;
  if (in.contains("variant")) read_variant(r, in.at("variant"), p);
  p.context.resize(static_cast<std::size_t>(p.variant.context_panels()));
  read_panels(r, in, "context", config, p.context);
  read_panels(r, in, "candidates", config, p.candidates);
  if (in.contains("rules")) p.rules = read_rules(r, in.at("rules"), config.components.size());
  if (in.contains("modified"))
    p.modified = read_modified(r, in.at("modified"), static_cast<int>(config.components.size()));
  if (in.contains("answer") && !in.at("answer").is_null())
    p.target = r.integer(in, "answer", "", 0, static_cast<int>(p.candidates.size()) - 1);
  return p;
}

}  // namespace rave::evaluation::internal
