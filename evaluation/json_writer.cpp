// JsonWriter (internal/json_writer.hpp): nlohmann::json's compact layout, written directly.
#include <charconv>
#include <cmath>
#include <cstdint>

#include "common/error.hpp"
#include "common/pyformat.hpp"
#include "common/swar.hpp"
#include "common/text.hpp"
#include "evaluation/internal/json_writer.hpp"

namespace rave::evaluation::internal {
namespace {

// Bytes that need an escape or a UTF-8 check: the quote, the backslash, controls, non-ASCII.
constexpr bool plain(unsigned char c) { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\'; }

// The length of the run of plain bytes at the start of `text`, eight bytes a step.
std::size_t plain_run(std::string_view text) {
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    const std::uint64_t w = load_word(text.data() + i);
    if (bytes_below(w, 0x20) | bytes_non_ascii(w) | bytes_equal(w, '"') | bytes_equal(w, '\\'))
      break;
  }
  while (i < text.size() && plain(static_cast<unsigned char>(text[i]))) ++i;
  return i;
}

void append_escape(std::string& out, unsigned char c) {
  switch (c) {
    case '"': out += "\\\""; return;
    case '\\': out += "\\\\"; return;
    case '\b': out += "\\b"; return;
    case '\f': out += "\\f"; return;
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    default: {
      static constexpr char kHex[] = "0123456789abcdef";
      const char u[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
      out.append(u, sizeof u);
    }
  }
}

}  // namespace

void append_json_number(std::string& out, double value) {
  if (!std::isfinite(value)) {
    out += "null";
    return;
  }
  append_shortest_float(out, value, 15);  // nlohmann: fixed for decimal exponents in [-4, 15)
}

void JsonWriter::separate() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  const std::uint64_t bit = std::uint64_t{1} << depth_;
  if (has_items_ & bit) out_ += ',';
  has_items_ |= bit;
}

JsonWriter& JsonWriter::open(char bracket) {
  RAVE_CHECK(depth_ < kMaxDepth, "JSON nested too deeply");
  separate();
  out_ += bracket;
  ++depth_;
  has_items_ &= ~(std::uint64_t{1} << depth_);
  return *this;
}

JsonWriter& JsonWriter::close(char bracket) {
  RAVE_CHECK(depth_ > 0 && !after_key_, "unbalanced JSON");
  --depth_;
  out_ += bracket;
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view name) {
  separate();
  escaped(name);
  out_ += ':';
  after_key_ = true;
  return *this;
}

void JsonWriter::escaped(std::string_view text) {
  out_ += '"';
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t run = i + plain_run(text.substr(i));
    out_.append(text.data() + i, run - i);
    if (run == text.size()) break;
    const auto c = static_cast<unsigned char>(text[run]);
    if (c < 0x80) {
      append_escape(out_, c);
      i = run + 1;
    } else if (const std::size_t length = utf8_sequence_length(text, run)) {
      out_.append(text.data() + run, length);
      i = run + length;
    } else {
      out_ += "\xEF\xBF\xBD";  // U+FFFD for a byte that is not valid UTF-8
      i = run + 1;
    }
  }
  out_ += '"';
}

JsonWriter& JsonWriter::value(std::string_view text) {
  separate();
  escaped(text);
  return *this;
}

JsonWriter& JsonWriter::value(std::int64_t number) {
  separate();
  char buffer[24];
  out_.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, number).ptr);
  return *this;
}

JsonWriter& JsonWriter::value(double number) {
  separate();
  append_json_number(out_, number);
  return *this;
}

JsonWriter& JsonWriter::value(bool truth) {
  separate();
  out_ += truth ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  separate();
  out_ += "null";
  return *this;
}

}  // namespace rave::evaluation::internal
