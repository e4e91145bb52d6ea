#include "grammar/syntax_error.hpp"

#include <algorithm>

#include "common/lines.hpp"
#include "grammar/vocabulary.hpp"

namespace rave::grammar {
namespace {

// Source lines longer than this are shown as a window around the column.
constexpr std::size_t kExcerptWidth = 100;
// Longest token quoted in full in "got ...".
constexpr std::size_t kMaxQuoted = 40;

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_printable(char c) { return c >= 0x20 && c < 0x7f; }

std::string quote(std::string_view token) {
  std::string out;
  out.reserve(token.size() + 2);
  return out.append(1, '\'').append(token).append(1, '\'');
}

std::string hex_byte(char c) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  const auto byte = static_cast<unsigned char>(c);
  return std::string("byte 0x") + kDigits[byte >> 4] + kDigits[byte & 15];
}

// What the text holds at `offset`: a quoted token (with its level when it is a node name), a
// quoted punctuation character, a byte value, or "end of input".
std::string describe_token(std::string_view text, std::size_t offset) {
  if (offset >= text.size()) return "end of input";
  const char c = text[offset];
  if (!is_name_char(c)) return is_printable(c) ? quote(text.substr(offset, 1)) : hex_byte(c);
  std::size_t end = offset;
  while (end < text.size() && is_name_char(text[end])) ++end;
  const std::string_view token = text.substr(offset, end - offset);
  if (token.size() > kMaxQuoted) return quote(std::string(token.substr(0, kMaxQuoted)) + "...");
  // Name the level of a known name in the wrong place; Scene and Entity name themselves.
  const auto level = level_of(token);
  const bool named = level && *level != Level::kRoot && *level != Level::kEntity;
  return named ? std::string(level_name(*level)).append(" ").append(quote(token)) : quote(token);
}

// The line holding `offset`, clipped to a window around the column, non-printable bytes shown as
// '?' (one per byte, so the caret stays aligned), then a caret line.
std::string make_excerpt(std::string_view line, std::size_t column0) {
  std::size_t first = 0;
  std::string prefix;
  std::string suffix;
  if (line.size() > kExcerptWidth) {
    first = column0 > kExcerptWidth / 2 ? column0 - kExcerptWidth / 2 : 0;
    if (first > 0) prefix = "...";
    if (first + kExcerptWidth < line.size()) suffix = "...";
    line = line.substr(first, kExcerptWidth);
  }
  std::string shown = prefix;
  for (const char c : line) shown += c == '\t' ? ' ' : (is_printable(c) ? c : '?');
  shown += suffix;
  return shown + "\n" + std::string(prefix.size() + column0 - first, ' ') + "^";
}

}  // namespace

bool is_separator(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == '.';
}

SyntaxError::SyntaxError(std::string file, int line, int column, std::string expected,
                         std::string got, std::string excerpt)
    : InputError(
          std::move(file),
          line_col(TextPosition{static_cast<std::size_t>(line), static_cast<std::size_t>(column)}),
          "expected " + expected + ", got " + got),
      line_(line),
      column_(column),
      expected_(std::move(expected)),
      got_(std::move(got)),
      excerpt_(std::move(excerpt)) {}

std::string SyntaxError::detailed() const { return std::string(what()) + "\n" + excerpt_; }

SyntaxError syntax_error_at(std::string_view text, std::size_t offset, std::string_view file,
                            std::string expected) {
  // Point at the offending token; at the end of input, just after the last token.
  offset = std::min(offset, text.size());
  while (offset < text.size() && is_separator(text[offset])) ++offset;
  const bool at_end = offset == text.size();
  if (at_end)
    while (offset > 0 && is_separator(text[offset - 1])) --offset;
  std::string got = at_end ? "end of input" : describe_token(text, offset);
  return syntax_error_at(text, offset, file, std::move(expected), std::move(got));
}

SyntaxError syntax_error_at(std::string_view text, std::size_t offset, std::string_view file,
                            std::string expected, std::string got) {
  offset = std::min(offset, text.size());
  const std::size_t line_start =
      offset == 0 ? 0 : text.rfind('\n', offset - 1) + 1;  // npos + 1 == 0
  std::size_t line_end = text.find('\n', offset);
  if (line_end == std::string_view::npos) line_end = text.size();
  std::string_view line = text.substr(line_start, line_end - line_start);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const TextPosition at = position_of(text, offset);
  return SyntaxError(std::string(file), static_cast<int>(at.line), static_cast<int>(at.column),
                     std::move(expected), std::move(got), make_excerpt(line, at.column - 1));
}

}  // namespace rave::grammar
