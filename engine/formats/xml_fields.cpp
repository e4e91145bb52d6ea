#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <optional>

#include "common/error.hpp"
#include "common/pyformat.hpp"
#include "common/text.hpp"
#include "engine/formats/internal/xml_fields.hpp"
#include "engine/model/constraints.hpp"

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
    return Slot{.y = v[0], .x = v[1], .h = v[2], .w = v[3]};
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

// Rule attrs allowed at each position of a rule group (docs/rules.md#rule-table).
}  // namespace

std::string slot_json(const Slot& slot) {
  std::string out = "[";
  const double values[] = {slot.y, slot.x, slot.h, slot.w};
  for (int i = 0; i < 4; ++i) {
    if (i > 0) out += ", ";
    const double v = values[i];
    if (v == std::floor(v) && std::fabs(v) < 1e15)
      out += std::to_string(static_cast<long long>(v));
    else
      append_py_float(out, v);
  }
  return out + "]";
}

std::string positions_json(const LayoutSpec& layout) {
  std::string out = "[";
  for (std::size_t i = 0; i < layout.slots.size(); ++i)
    out += (i > 0 ? ", " : "") + slot_json(layout.slots[i]);
  return out + "]";
}

const LayoutText& layout_text(const LayoutSpec& layout) {
  static const std::vector<LayoutText> all = [] {
    std::vector<LayoutText> out;
    for (const Configuration& c : all_configurations())
      for (const ComponentSpec& comp : c.components) {
        LayoutText t;
        t.layout = &comp.layout;
        for (const Slot& s : comp.layout.slots) t.slots.push_back(slot_json(s));
        t.positions = positions_json(comp.layout);
        out.push_back(std::move(t));
      }
    return out;
  }();
  const auto found = std::find_if(all.begin(), all.end(),
                                  [&](const LayoutText& t) { return t.layout == &layout; });
  RAVE_CHECK(found != all.end(), "layout is not one of the configuration tables");
  return *found;
}

AttributeNames::AttributeNames(std::initializer_list<const char*> names) {
  RAVE_CHECK(names.size() <= names_.size(), "too many attribute names");
  by_first_.fill(-1);
  for (const char* name : names) {
    const auto first = static_cast<unsigned char>(name[0]);
    RAVE_CHECK(first != 0 && by_first_[first] < 0,
               "attribute names must differ in their first character");
    by_first_[first] = static_cast<std::int8_t>(size_);
    names_[size_++] = name;
  }
}

int AttributeNames::index_of(const char* name) const {
  const int k = by_first_[static_cast<unsigned char>(name[0])];
  if (k < 0) return -1;
  const char* want = names_[static_cast<std::size_t>(k)];
  std::size_t i = 1;
  while (name[i] == want[i] && want[i] != 0) ++i;
  return name[i] == want[i] ? k : -1;
}

void find_attributes(XmlNode node, const AttributeNames& names, std::span<const char*> values) {
  RAVE_CHECK(names.size() == values.size(), "one value per attribute name");
  std::fill(values.begin(), values.end(), nullptr);
  for (XmlAttribute a = node.first_attribute(); a; a = a.next_attribute()) {
    const int k = names.index_of(a.name());
    if (k >= 0 && values[static_cast<std::size_t>(k)] == nullptr)
      values[static_cast<std::size_t>(k)] = a.value();
  }
}

std::string Place::str() const {
  std::string head;
  if (parent != nullptr) {
    head = parent->str();
    head += '/';
  }
  head += name;
  if (index > 0) {
    head += '[';
    head += std::to_string(index);
    head += ']';
  }
  return head;
}

void XmlContext::fail(const Place& place, const std::string& message) const {
  throw InputError(std::string(file), place.str(), message);
}

void XmlContext::fail(const Place& place, const char* attr, const std::string& message) const {
  throw InputError(std::string(file), place.str() + "@" + attr, message);
}

XmlNode XmlContext::child(XmlNode node, const char* name, const Place& place) const {
  XmlNode found = node.child(name);
  if (!found) fail(place, std::string("missing element ") + name);
  if (found.next_sibling(name)) fail(place, std::string("more than one ") + name + " element");
  return found;
}

std::vector<XmlNode> XmlContext::children(XmlNode node, const char* name) const {
  std::vector<XmlNode> out;
  for (XmlNode c = node.child(name); c; c = c.next_sibling(name)) out.push_back(c);
  return out;
}

std::string_view XmlContext::text(XmlNode node, const char* attr, const Place& place) const {
  const XmlAttribute a = node.attribute(attr);
  return required(a ? a.value() : nullptr, attr, place);
}

std::string_view XmlContext::required(const char* value, const char* attr,
                                      const Place& place) const {
  if (value == nullptr) fail(place, attr, std::string("missing attribute ") + attr);
  return value;
}

long long XmlContext::integer(XmlNode node, const char* attr, const Place& place) const {
  return integer(text(node, attr, place), attr, place);
}

long long XmlContext::integer(std::string_view value, const char* attr, const Place& place) const {
  if (value.size() == 1 && value[0] >= '0' && value[0] <= '9')
    return value[0] - '0';  // levels and ids
  long long v = 0;
  const auto r = std::from_chars(value.data(), value.data() + value.size(), v);
  if (value.empty() || r.ec != std::errc() || r.ptr != value.data() + value.size())
    fail(place, attr, "not an integer: " + quote_value(value));
  return v;
}

int XmlContext::level(XmlNode node, const char* attr, const Place& place, int lo, int hi) const {
  return level(text(node, attr, place), attr, place, lo, hi);
}

int XmlContext::level(std::string_view value, const char* attr, const Place& place, int lo,
                      int hi) const {
  const long long v = integer(value, attr, place);
  if (v < lo || v > hi)
    fail(place, attr,
         std::string(attr) + " level " + std::to_string(v) + " out of range [" +
             std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return static_cast<int>(v);
}

int XmlContext::slot_of(std::string_view bbox, const LayoutText& known, const Place& place) const {
  for (std::size_t i = 0; i < known.slots.size(); ++i)
    if (known.slots[i] == bbox) return static_cast<int>(i);
  const LayoutSpec& layout = *known.layout;
  const auto slot = parse_slot(bbox);  // other spellings of the same numbers ("1.0", no spaces)
  if (!slot) fail(place, "bbox", "bbox is not a list of 4 numbers: " + quote_value(bbox));
  for (std::size_t i = 0; i < layout.slots.size(); ++i)
    if (layout.slots[i] == *slot) return static_cast<int>(i);
  fail(place, "bbox",
       "bbox " + quote_value(bbox) + " is no slot of layout " + std::string(layout.name));
}

void XmlContext::check_positions(std::string_view position, const LayoutText& known,
                                 const Place& place) const {
  if (position == known.positions) return;
  const auto slots = parse_slots(position);
  if (!slots) fail(place, "Position", "Position is not a list of slots");
  if (*slots != known.layout->slots)
    fail(place, "Position",
         "Position does not list the slots of layout " + std::string(known.layout->name));
}

std::vector<RuleGroup> XmlContext::rule_groups(XmlNode rules, const Configuration& config,
                                               const Place& place) const {
  const auto groups = children(rules, "Rule_Group");
  if (groups.size() != config.components.size())
    fail(place, "expected " + std::to_string(config.components.size()) +
                    " Rule_Group elements, found " + std::to_string(groups.size()));
  std::vector<RuleGroup> out(groups.size());
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const Place group{&place, "Rule_Group", g + 1};
    if (integer(groups[g], "id", group) != static_cast<long long>(g))
      fail(group, "id", "expected id " + std::to_string(g));
    const auto rules_of_group = children(groups[g], "Rule");
    if (rules_of_group.size() != 4)
      fail(group, "expected 4 Rule elements, found " + std::to_string(rules_of_group.size()));
    for (std::size_t r = 0; r < 4; ++r) {
      const Place rule{&group, "Rule", r + 1};
      const std::string_view name_text = text(rules_of_group[r], "name", rule);
      const auto name = parse_rule_name(name_text);
      if (!name) fail(rule, "name", "unknown rule name " + quote_value(name_text));
      const std::string_view attr_text = text(rules_of_group[r], "attr", rule);
      const auto attr = parse_rule_attr(attr_text);
      if (!attr || !rule_attr_fits(r, *attr))
        fail(rule, "attr",
             "rule attr " + quote_value(attr_text) + " does not fit position " +
                 std::to_string(r + 1) + " of a rule group");
      out[g].rules[r] = Rule{.name = *name, .attr = *attr, .value = 0, .value_known = false};
      const std::string defect =
          rule_defect(static_cast<int>(r), out[g].rules[r], config.components[g].layout);
      if (!defect.empty()) fail(rule, defect);
    }
  }
  return out;
}

std::array<std::vector<Modification>, kCandidates> XmlContext::modifications(
    XmlNode node, const Configuration& config, const Place& place) const {
  const auto candidates = children(node, "Candidate");
  if (candidates.size() != kCandidates)
    fail(place, "expected 8 Candidate elements, found " + std::to_string(candidates.size()));
  std::array<std::vector<Modification>, kCandidates> out;
  for (std::size_t i = 0; i < kCandidates; ++i) {
    const Place candidate{&place, "Candidate", i + 1};
    if (integer(candidates[i], "id", candidate) != static_cast<long long>(i))
      fail(candidate, "id", "expected id " + std::to_string(i));
    const auto attributes = children(candidates[i], "Attribute");
    for (std::size_t a = 0; a < attributes.size(); ++a) {
      const Place attribute{&candidate, "Attribute", a + 1};
      const int component = level(attributes[a], "component_id", attribute, 0,
                                  static_cast<int>(config.components.size()) - 1);
      const std::string_view name = text(attributes[a], "name", attribute);
      const auto attr = parse_attr(name);
      if (!attr || *attr == Attr::kAngle || *attr == Attr::kUniformity)
        fail(attribute, "name", "unknown modified attribute " + quote_value(name));
      out[i].push_back(Modification{component, *attr});
    }
  }
  return out;
}

}  // namespace rave::engine::internal
