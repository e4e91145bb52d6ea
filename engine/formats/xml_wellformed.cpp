// Well-formedness checks of the problem XML reader (engine/formats/internal/xml_fields.hpp) that
// pugixml does not make: the characters XML allows, one root element, no text outside it, no
// attribute given twice. Python's ElementTree (expat), libxml2 and every other conforming parser
// refuse such files; so does rave, with file:line:col.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/error.hpp"
#include "common/lines.hpp"
#include "common/text.hpp"
#include "engine/formats/internal/xml_fields.hpp"

namespace rave::engine::internal {
namespace {

[[noreturn]] void fail_at(std::string_view text, std::size_t offset, const std::string& file,
                          const std::string& message) {
  throw InputError(file, line_col(text, offset), "XML syntax: " + message);
}

// Whether eight bytes hold one that needs a closer look: a byte >= 0x80 (UTF-8) or < 0x20 (a
// control character). A borrow makes false positives only above a true one.
bool needs_look(std::uint64_t word) {
  return ((word - 0x2020202020202020ULL) | word) & 0x8080808080808080ULL;
}

// The length of the character at text[at], or 0 when XML 1.0 does not allow it there (section 2.2:
// tab, LF, CR, U+0020..U+D7FF, U+E000..U+FFFD, U+10000..U+10FFFF).
std::size_t xml_char_length(std::string_view text, std::size_t at) {
  const auto byte = static_cast<unsigned char>(text[at]);
  if (byte < 0x20) return byte == '\t' || byte == '\n' || byte == '\r' ? 1 : 0;
  const std::size_t length = utf8_sequence_length(text, at);
  if (length == 3 && byte == 0xEF && text[at + 1] == '\xBF' &&
      (text[at + 2] == '\xBE' || text[at + 2] == '\xBF'))
    return 0;  // U+FFFE, U+FFFF
  return length;
}

std::string describe_bad_char(std::string_view text, std::size_t at) {
  const auto byte = static_cast<unsigned char>(text[at]);
  static constexpr char kHex[] = "0123456789abcdef";
  const std::string hex = {'0', 'x', kHex[byte >> 4], kHex[byte & 0xF]};
  if (byte < 0x20) return "control character " + hex + " is not allowed in XML";
  if (byte == 0xEF) return "character U+FFFE or U+FFFF is not allowed in XML";
  return "byte " + hex + " is not valid UTF-8";
}

// The first attribute of `element` (in document order) whose name an earlier one already has, among
// more than a few: sorted names, for a hostile element with thousands.
pugi::xml_attribute repeated_attribute_sorted(pugi::xml_node element) {
  std::vector<pugi::xml_attribute> all;
  for (pugi::xml_attribute a = element.first_attribute(); a; a = a.next_attribute())
    all.push_back(a);
  std::vector<std::size_t> order(all.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
    return std::strcmp(all[i].name(), all[j].name()) < 0;
  });
  std::size_t first_repeat = all.size();
  for (std::size_t k = 1; k < order.size(); ++k)
    if (std::strcmp(all[order[k]].name(), all[order[k - 1]].name()) == 0)
      first_repeat = std::min(first_repeat, order[k]);
  return first_repeat < all.size() ? all[first_repeat] : pugi::xml_attribute{};
}

// The same for the few attributes of a problem file's elements: each name is compared in full only
// with the earlier ones of its first byte (a problem file's names differ in those), without
// allocating; more than kFew attributes go the sorted way.
pugi::xml_attribute repeated_attribute(pugi::xml_node element) {
  constexpr std::size_t kFew = 16;
  std::array<const char*, kFew> seen;  // [0, count) set; not cleared, it is per element
  std::size_t count = 0;
  for (pugi::xml_attribute a = element.first_attribute(); a; a = a.next_attribute(), ++count) {
    if (count == kFew) return repeated_attribute_sorted(element);
    const char* name = a.name();
    for (std::size_t i = 0; i < count; ++i)
      if (seen[i][0] == name[0] && std::strcmp(seen[i], name) == 0) return a;
    seen[count] = name;
  }
  return {};
}

// The next element of a depth-first walk below `root` (nullptr-like when done), without a stack.
pugi::xml_node next_element(pugi::xml_node node, pugi::xml_node root) {
  if (pugi::xml_node child = node.first_child()) return child;
  while (node != root) {
    if (pugi::xml_node sibling = node.next_sibling()) return sibling;
    node = node.parent();
  }
  return {};
}

// A digit's value in a character reference (hexadecimal when `hex`), or -1.
int reference_digit(char c, bool hex) {
  if (c >= '0' && c <= '9') return c - '0';
  if (hex && c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (hex && c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Whether XML's Char production allows the code point `value` (section 2.2).
bool xml_char_allowed(std::uint64_t value) {
  return value == 0x9 || value == 0xA || value == 0xD || (value >= 0x20 && value <= 0xD7FF) ||
         (value >= 0xE000 && value <= 0xFFFD) || (value >= 0x10000 && value <= 0x10FFFF);
}

}  // namespace

// A numeric character reference at text[at] ('&', then '#') names a character XML allows (section
// 4.1: "must match the production for Char"): &#0; or &#99999999999; is refused where it stands,
// not decoded by pugixml into a cut value or a character no reader accepts.
void check_character_reference(std::string_view text, std::size_t at, const std::string& file) {
  const bool hex = at + 2 < text.size() && text[at + 2] == 'x';
  std::size_t i = at + (hex ? 3 : 2);
  std::uint64_t value = 0;
  std::size_t digits = 0;
  for (; i < text.size() && digits < 16; ++i, ++digits) {
    const int d = reference_digit(text[i], hex);
    if (d < 0) break;
    value = value * (hex ? 16 : 10) + static_cast<std::uint64_t>(d);
  }
  const bool ends = i < text.size() && text[i] == ';' && digits > 0;
  if (ends && xml_char_allowed(value)) return;
  const std::size_t shown = std::min<std::size_t>({text.size() - at, i + 1 - at, 24});
  fail_at(text, at, file,
          "character reference " + printable(text.substr(at, shown)) +
              (ends ? " names no character XML allows" : " is not closed by ';'"));
}

void check_xml_characters(std::string_view text, const std::string& file) {
  // References first, found by memchr on '&': problem files have none, so this costs a fast scan.
  for (std::size_t at = text.find('&'); at != std::string_view::npos; at = text.find('&', at + 1))
    if (at + 1 < text.size() && text[at + 1] == '#') check_character_reference(text, at, file);
  std::size_t i = 0;
  while (i < text.size()) {
    if (i + 32 <= text.size()) {  // four words at once: almost all of a problem file is ASCII
      std::uint64_t w[4];
      std::memcpy(w, text.data() + i, sizeof w);
      if (!needs_look(w[0]) && !needs_look(w[1]) && !needs_look(w[2]) && !needs_look(w[3])) {
        i += 32;
        continue;
      }
    }
    if (i + 8 <= text.size()) {
      std::uint64_t word;
      std::memcpy(&word, text.data() + i, 8);  // little-endian or not, each byte keeps its lane
      if (!needs_look(word)) {
        i += 8;
        continue;
      }
    }
    const std::size_t end = std::min(text.size(), i + 8);
    while (i < end) {
      const std::size_t length = xml_char_length(text, i);
      if (length == 0) fail_at(text, i, file, describe_bad_char(text, i));
      i += length;
    }
  }
}

void check_xml_tree(const pugi::xml_document& doc, std::string_view text, const char* base,
                    const std::string& file) {
  const auto offset = [&](const char* p) { return static_cast<std::size_t>(p - base); };
  pugi::xml_node root;
  for (pugi::xml_node node = doc.first_child(); node; node = node.next_sibling()) {
    if (node.type() == pugi::node_pcdata || node.type() == pugi::node_cdata) {
      const char* value = node.value();
      while (*value == ' ' || *value == '\t' || *value == '\n' || *value == '\r') ++value;
      fail_at(text, offset(value), file,
              std::string(root ? "text after" : "text before") + " the root element");
    }
    if (node.type() != pugi::node_element) continue;
    if (root)
      fail_at(text, offset(node.name()) - 1, file,
              "a second root element <" + printable(node.name()).substr(0, 80) + ">");
    root = node;
  }
  if (!root) fail_at(text, text.size(), file, "no root element");
  for (pugi::xml_node e = root; e; e = next_element(e, root)) {
    if (e.type() != pugi::node_element) continue;
    if (const pugi::xml_attribute a = repeated_attribute(e))
      fail_at(text, offset(a.name()), file, "attribute " + quote_value(a.name()) + " given twice");
  }
}

}  // namespace rave::engine::internal
