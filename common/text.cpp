#include "common/text.hpp"

namespace rave {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void append_escaped_byte(std::string& out, unsigned char byte) {
  switch (byte) {
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default:
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
  }
}

// Bytes 0x80..0xBF continue a sequence.
bool continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

}  // namespace

// RFC 3629, table 3-7 of the Unicode standard: the second byte's range depends on the first.
std::size_t utf8_sequence_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
  const unsigned char first = byte(0);
  if (first < 0x80) return 1;
  std::size_t length = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (first >= 0xC2 && first <= 0xDF)
    length = 2;
  else if (first >= 0xE0 && first <= 0xEF)
    length = 3, lo = first == 0xE0 ? 0xA0 : 0x80, hi = first == 0xED ? 0x9F : 0xBF;
  else if (first >= 0xF0 && first <= 0xF4)
    length = 4, lo = first == 0xF0 ? 0x90 : 0x80, hi = first == 0xF4 ? 0x8F : 0xBF;
  else
    return 0;
  if (text.size() - at < length || byte(1) < lo || byte(1) > hi) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if (!continuation(byte(i))) return 0;
  return length;
}

std::size_t utf8_error(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    // Eight ASCII bytes at a time: most of a problem file.
    while (i + 8 <= text.size()) {
      unsigned long long word = 0;
      for (std::size_t k = 0; k < 8; ++k)
        word |= static_cast<unsigned long long>(static_cast<unsigned char>(text[i + k])) << (8 * k);
      if ((word & 0x8080808080808080ULL) != 0) break;
      i += 8;
    }
    if (i >= text.size()) break;
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) return i;
    i += length;
  }
  return std::string_view::npos;
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte == 0x7F) {
      append_escaped_byte(out, byte);
      ++i;
      continue;
    }
    const std::size_t length = utf8_sequence_length(text, i);
    // C1 controls (U+0080..U+009F, 0xC2 0x80..0x9F) act as escape sequences on some terminals.
    const bool c1 = length == 2 && byte == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0;
    if (length == 0 || c1) {
      append_escaped_byte(out, byte);
      ++i;
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

// Appends rather than "'" + string: g++ 12 warns falsely (-Wrestrict) on that, and CI builds with
// -Werror.
std::string quote_value(std::string_view value, std::size_t max_chars) {
  std::string out(1, '\'');
  if (value.size() <= max_chars) return out.append(printable(value)).append(1, '\'');
  std::size_t cut = max_chars;  // do not split a UTF-8 sequence
  while (cut > 0 && continuation(static_cast<unsigned char>(value[cut]))) --cut;
  out.append(printable(value.substr(0, cut))).append("...' (").append(std::to_string(value.size()));
  return out.append(" bytes)");
}

}  // namespace rave
