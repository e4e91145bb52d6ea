#include <cctype>
#include <charconv>
#include <optional>

#include "common/error.hpp"
#include "engine/internal/xml_fields.hpp"

namespace rave::engine::internal {
namespace {

// A cursor over the JSON subset of the XML attributes: lists of numbers, lists of such lists.
class JsonCursor {
 public:
  explicit JsonCursor(std::string_view text) : text_(text) {}
  bool accept(char c) {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (pos_ < text_.size() && text_[pos_] == c) return ++pos_, true;
    return false;
  }
  std::optional<double> number() {
    accept(' ');
    double v = 0;
    const auto r = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), v);
    if (r.ec != std::errc()) return std::nullopt;
    pos_ = static_cast<std::size_t>(r.ptr - text_.data());
    return v;
  }
  std::optional<Slot> slot() {
    if (!accept('[')) return std::nullopt;
    double v[4];
    for (int i = 0; i < 4; ++i) {
      if (i > 0 && !accept(',')) return std::nullopt;
      auto n = number();
      if (!n) return std::nullopt;
      v[i] = *n;
    }
    if (!accept(']')) return std::nullopt;
    return Slot{v[0], v[1], v[2], v[3]};
  }
  bool at_end() {
    accept(' ');
    return pos_ == text_.size();
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
};

std::optional<Slot> parse_slot(std::string_view text) {
  JsonCursor c(text);
  auto s = c.slot();
  if (!s || !c.at_end()) return std::nullopt;
  return s;
}

std::optional<std::vector<Slot>> parse_slots(std::string_view text) {
  JsonCursor c(text);
  std::vector<Slot> slots;
  if (!c.accept('[')) return std::nullopt;
  if (!c.accept(']')) {
    do {
      auto s = c.slot();
      if (!s) return std::nullopt;
      slots.push_back(*s);
    } while (c.accept(','));
    if (!c.accept(']')) return std::nullopt;
  }
  if (!c.at_end()) return std::nullopt;
  return slots;
}

// Rule attrs allowed at each position of a rule group (spec 4.1).
bool attr_fits(std::size_t position, RuleAttr attr) {
  switch (position) {
    case 0: return attr == RuleAttr::kNumberPosition || attr == RuleAttr::kNumber || attr == RuleAttr::kPosition;
    case 1: return attr == RuleAttr::kType;
    case 2: return attr == RuleAttr::kSize;
    default: return attr == RuleAttr::kColor;
  }
}

}  // namespace

void XmlContext::fail(const std::string& place, const std::string& message) const {
  throw InputError(file, place, message);
}

std::string XmlContext::indexed(const std::string& base, std::size_t i) const {
  return base + "[" + std::to_string(i + 1) + "]";
}

pugi::xml_node XmlContext::child(pugi::xml_node node, const char* name, const std::string& path) const {
  pugi::xml_node found = node.child(name);
  if (!found) fail(path, std::string("missing element ") + name);
  if (found.next_sibling(name)) fail(path, std::string("more than one ") + name + " element");
  return found;
}

std::vector<pugi::xml_node> XmlContext::children(pugi::xml_node node, const char* name) const {
  std::vector<pugi::xml_node> out;
  for (pugi::xml_node c = node.child(name); c; c = c.next_sibling(name)) out.push_back(c);
  return out;
}

std::string XmlContext::text(pugi::xml_node node, const char* attr, const std::string& path) const {
  pugi::xml_attribute a = node.attribute(attr);
  if (!a) fail(path + "@" + attr, std::string("missing attribute ") + attr);
  return a.value();
}

long long XmlContext::integer(pugi::xml_node node, const char* attr, const std::string& path) const {
  const std::string value = text(node, attr, path);
  long long v = 0;
  const auto r = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || r.ec != std::errc() || r.ptr != value.data() + value.size())
    fail(path + "@" + attr, "not an integer: '" + value + "'");
  return v;
}

int XmlContext::level(pugi::xml_node node, const char* attr, const std::string& path, int lo, int hi) const {
  const long long v = integer(node, attr, path);
  if (v < lo || v > hi)
    fail(path + "@" + attr, std::string(attr) + " level " + std::to_string(v) + " out of range [" +
                                std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return static_cast<int>(v);
}

int XmlContext::slot_of(pugi::xml_node entity, const LayoutSpec& layout, const std::string& path) const {
  const std::string value = text(entity, "bbox", path);
  const auto slot = parse_slot(value);
  if (!slot) fail(path + "@bbox", "bbox is not a list of 4 numbers: '" + value + "'");
  for (std::size_t i = 0; i < layout.slots.size(); ++i)
    if (layout.slots[i] == *slot) return static_cast<int>(i);
  fail(path + "@bbox", "bbox " + value + " is no slot of layout " + std::string(layout.name));
}

void XmlContext::check_positions(pugi::xml_node layout, const LayoutSpec& spec, const std::string& path) const {
  const std::string value = text(layout, "Position", path);
  const auto slots = parse_slots(value);
  if (!slots) fail(path + "@Position", "Position is not a list of slots");
  if (*slots != spec.slots) fail(path + "@Position", "Position does not list the slots of layout " + std::string(spec.name));
}

std::vector<RuleGroup> XmlContext::rule_groups(pugi::xml_node rules, const Configuration& config) const {
  const auto groups = children(rules, "Rule_Group");
  if (groups.size() != config.components.size())
    fail("Data/Rules", "expected " + std::to_string(config.components.size()) + " Rule_Group elements, found " +
                           std::to_string(groups.size()));
  std::vector<RuleGroup> out(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const std::string path = indexed("Data/Rules/Rule_Group", g);
    if (integer(groups[g], "id", path) != static_cast<long long>(g)) fail(path + "@id", "expected id " + std::to_string(g));
    const auto rules_of_group = children(groups[g], "Rule");
    if (rules_of_group.size() != 4) fail(path, "expected 4 Rule elements, found " + std::to_string(rules_of_group.size()));
    for (std::size_t r = 0; r < 4; ++r) {
      const std::string rule_path = indexed(path + "/Rule", r);
      const auto name = parse_rule_name(text(rules_of_group[r], "name", rule_path));
      if (!name) fail(rule_path + "@name", "unknown rule name '" + text(rules_of_group[r], "name", rule_path) + "'");
      const auto attr = parse_rule_attr(text(rules_of_group[r], "attr", rule_path));
      if (!attr || !attr_fits(r, *attr))
        fail(rule_path + "@attr", "rule attr '" + text(rules_of_group[r], "attr", rule_path) + "' does not fit position " +
                                      std::to_string(r + 1) + " of a rule group");
      out[g].rules[r] = Rule{*name, *attr, 0, false};
    }
  }
  return out;
}

std::array<std::vector<Modification>, 8> XmlContext::modifications(pugi::xml_node node, const Configuration& config) const {
  const auto candidates = children(node, "Candidate");
  if (candidates.size() != 8)
    fail("Data/Modified_attributes", "expected 8 Candidate elements, found " + std::to_string(candidates.size()));
  std::array<std::vector<Modification>, 8> out;
  for (std::size_t i = 0; i < 8; ++i) {
    const std::string path = indexed("Data/Modified_attributes/Candidate", i);
    if (integer(candidates[i], "id", path) != static_cast<long long>(i)) fail(path + "@id", "expected id " + std::to_string(i));
    const auto attributes = children(candidates[i], "Attribute");
    for (std::size_t a = 0; a < attributes.size(); ++a) {
      const std::string attr_path = indexed(path + "/Attribute", a);
      const int component = level(attributes[a], "component_id", attr_path, 0, static_cast<int>(config.components.size()) - 1);
      const std::string name = text(attributes[a], "name", attr_path);
      const auto attr = parse_attr(name);
      if (!attr || *attr == Attr::kAngle || *attr == Attr::kUniformity)
        fail(attr_path + "@name", "unknown modified attribute '" + name + "'");
      out[i].push_back(Modification{component, *attr});
    }
  }
  return out;
}

}  // namespace rave::engine::internal
