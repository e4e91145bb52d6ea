// XmlTree, its scanner of the plain subset, and its copy of a pugixml document
// (internal/xml_tree.hpp).
#include <array>
#include <cstdint>
#include <string_view>

#include "common/error.hpp"
#include "common/swar.hpp"
#include "engine/formats/internal/xml_fields.hpp"
#include "engine/formats/internal/xml_tree.hpp"

namespace rave::engine::internal {

void XmlTree::clear() {
  elements_.clear();
  attributes_.clear();
  open_.clear();
  last_child_.clear();
}

void XmlTree::open(const char* name) {
  const auto index = static_cast<std::uint32_t>(elements_.size());
  const auto attributes = static_cast<std::uint32_t>(attributes_.size());
  elements_.push_back({name, kNone, kNone, attributes, attributes});
  if (!open_.empty()) {
    std::uint32_t& last = last_child_.back();
    (last == kNone ? elements_[open_.back()].first_child : elements_[last].next_sibling) = index;
    last = index;
  }
  open_.push_back(index);
  last_child_.push_back(kNone);
}

void XmlTree::close() {
  open_.pop_back();
  last_child_.pop_back();
}

namespace {

// Character classes of the scanner, a table lookup each.
enum : std::uint8_t { kBlank = 1, kNameStart = 2, kNameChar = 4, kNotInValue = 8 };

constexpr std::array<std::uint8_t, 256> kClasses = [] {
  std::array<std::uint8_t, 256> t{};
  for (char c : {' ', '\t', '\n', '\r'}) t[static_cast<unsigned char>(c)] |= kBlank;
  for (int c = 0; c < 256; ++c) {
    const bool letter = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == ':';
    if (letter) t[static_cast<std::size_t>(c)] |= kNameStart | kNameChar;
    if ((c >= '0' && c <= '9') || c == '.' || c == '-') t[static_cast<std::size_t>(c)] |= kNameChar;
  }
  // In a value: references and '<' (pugixml's to decode or refuse), the blanks it normalises, NUL.
  for (char c : {'&', '<', '\t', '\n', '\r', '\0'}) t[static_cast<unsigned char>(c)] |= kNotInValue;
  return t;
}();

inline bool is(char c, std::uint8_t cls) { return kClasses[static_cast<unsigned char>(c)] & cls; }
inline bool blank(char c) { return is(c, kBlank); }

// Whether eight bytes hold a control character (< 0x20), '&' or '<'.
inline bool word_has_bad(std::uint64_t w) {
  return (bytes_below(w, 0x20) | bytes_equal(w, '&') | bytes_equal(w, '<')) != 0;
}

// Whether [begin, end) holds nothing a value of the subset must not: references, '<', and the
// control characters (tab, CR and LF, which pugixml turns into spaces; others are not XML).
inline bool plain_value(const char* begin, const char* end) {
  for (; end - begin >= 8; begin += 8)
    if (word_has_bad(load_word(begin))) return false;
  for (; begin < end; ++begin)
    if (is(*begin, kNotInValue) || static_cast<unsigned char>(*begin) < 0x20) return false;
  return true;
}

// Scratch of the scanner, kept per thread.
struct ScanScratch {
  std::vector<const char*> open;        // names of the open elements
  std::vector<std::string_view> names;  // the current element's attribute names
};

// A cursor over the text; every step that meets something outside the subset gives up (false).
class Scanner {
 public:
  Scanner(std::string& text, XmlTree& tree, ScanScratch& scratch)
      : p_(text.data()), end_(text.data() + text.size()), tree_(tree), s_(scratch) {
    s_.open.clear();
  }

  bool document() {
    skip_blanks();
    if (at("<?xml") && p_ + 5 < end_ && blank(p_[5]) && !declaration()) return false;
    skip_blanks();
    if (!elements()) return false;
    skip_blanks();
    return p_ == end_;
  }

 private:
  bool at(std::string_view s) const {
    return static_cast<std::size_t>(end_ - p_) >= s.size() && std::string_view(p_, s.size()) == s;
  }
  void skip_blanks() {
    while (p_ < end_ && blank(*p_)) ++p_;
  }

  // `<?xml ... ?>` with no `<`, `>` or NUL inside.
  bool declaration() {
    for (char* q = p_ + 5; q + 1 < end_; ++q) {
      if (*q == '<' || *q == '>' || *q == '\0') return false;
      if (q[0] == '?' && q[1] == '>') {
        p_ = q + 2;
        return true;
      }
    }
    return false;
  }

  // A name at the cursor; the cursor moves past it (its end is not yet terminated).
  char* name() {
    if (p_ == end_ || !is(*p_, kNameStart)) return nullptr;
    char* start = p_;
    while (p_ < end_ && is(*p_, kNameChar)) ++p_;
    return start;
  }

  // The root element and everything inside it: tags with nothing but blanks between them.
  bool elements() {
    do {
      if (p_ == end_ || *p_ != '<') return false;
      ++p_;
      if (!(p_ < end_ && *p_ == '/' ? close_tag() : open_tag())) return false;
      if (s_.open.empty()) return true;
      skip_blanks();
    } while (true);
  }

  bool open_tag() {
    char* start = name();
    if (start == nullptr || p_ == end_) return false;
    char* name_end = p_;
    const char after = *p_;
    if (!(blank(after) || after == '>' || after == '/')) return false;
    tree_.open(start);
    s_.names.clear();
    bool empty = false;
    if (!attributes(empty)) return false;
    *name_end = '\0';  // it was a blank, '>' or '/', all read by now
    if (empty)
      tree_.close();
    else
      s_.open.push_back(start);
    return true;
  }

  // ` name="value"` pairs up to `>` or `/>` (sets `empty` for the latter).
  bool attributes(bool& empty) {
    while (true) {
      const bool spaced = p_ < end_ && blank(*p_);
      skip_blanks();
      if (p_ == end_) return false;
      if (*p_ == '>' || *p_ == '/') {
        empty = *p_ == '/';
        if (empty && (p_ + 1 == end_ || p_[1] != '>')) return false;
        p_ += empty ? 2 : 1;
        return true;
      }
      if (!spaced || !attribute()) return false;
    }
  }

  bool attribute() {
    char* start = name();
    if (start == nullptr) return false;
    char* name_end = p_;
    skip_blanks();
    if (p_ == end_ || *p_ != '=') return false;
    ++p_;
    skip_blanks();
    if (p_ == end_ || (*p_ != '"' && *p_ != '\'')) return false;
    const char quote = *p_++;
    char* value = p_;
    p_ = static_cast<char*>(std::memchr(p_, quote, static_cast<std::size_t>(end_ - p_)));
    if (p_ == nullptr) return false;
    if (!plain_value(value, p_)) return false;
    *p_++ = '\0';      // ends the value (its closing quote)
    *name_end = '\0';  // ends the name (it was '=' or a blank, both read)
    const std::string_view name(start, static_cast<std::size_t>(name_end - start));
    for (const std::string_view seen : s_.names)  // given twice: pugixml's path reports it
      if (seen.size() == name.size() && seen[0] == name[0] && seen == name) return false;
    s_.names.push_back(name);
    tree_.add_attribute(start, value);
    return true;
  }

  bool close_tag() {
    ++p_;  // '/'
    const char* start = name();
    if (start == nullptr || s_.open.empty()) return false;
    const std::string_view closed(start, static_cast<std::size_t>(p_ - start));
    if (closed != std::string_view(s_.open.back())) return false;
    skip_blanks();
    if (p_ == end_ || *p_ != '>') return false;
    ++p_;
    s_.open.pop_back();
    tree_.close();
    return true;
  }

  char* p_;
  char* end_;
  XmlTree& tree_;
  ScanScratch& s_;
};

void describe(XmlNode node, int depth, std::string& out) {
  out.append(static_cast<std::size_t>(2 * depth), ' ');
  out += node.name();
  for (XmlAttribute a = node.first_attribute(); a; a = a.next_attribute()) {
    out += ' ';
    out += a.name();
    out += "='";
    out += a.value();
    out += '\'';
  }
  out += '\n';
  for (XmlNode c = node.first_child(); c; c = c.next_sibling()) describe(c, depth + 1, out);
}

void copy_element(pugi::xml_node node, XmlTree& tree) {
  tree.open(node.name());
  for (pugi::xml_attribute a = node.first_attribute(); a; a = a.next_attribute())
    tree.add_attribute(a.name(), a.value());
  for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling())
    if (c.type() == pugi::node_element) copy_element(c, tree);
  tree.close();
}

}  // namespace

bool scan_xml(std::string& text, XmlTree& tree) {
  tree.clear();
  thread_local ScanScratch scratch;
  return Scanner(text, tree, scratch).document();
}

void tree_of(const pugi::xml_document& doc, XmlTree& tree) {
  tree.clear();
  if (const pugi::xml_node root = doc.document_element()) copy_element(root, tree);
}

}  // namespace rave::engine::internal

namespace rave::engine::internal {

std::string describe(const XmlTree& tree) {
  std::string out;
  if (const XmlNode root = tree.root()) describe(root, 0, out);
  return out;
}

std::optional<std::string> describe_pugixml_parse(std::string text) {
  const std::string original = text;
  pugi::xml_document doc;
  if (!doc.load_buffer_inplace(text.data(), text.size(), kPugixmlParseOptions, pugi::encoding_utf8))
    return std::nullopt;
  try {
    check_xml_tree(doc, original, text.data(), "t.xml");
  } catch (const InputError&) {
    return std::nullopt;
  }
  XmlTree tree;
  tree_of(doc, tree);
  return describe(tree);
}

}  // namespace rave::engine::internal
