#pragma once
// Text from files and command lines made safe to show: error lines must stay one line, must not
// carry terminal escape sequences, must be valid UTF-8 (JSON writers and terminals need it) and
// must stay short however long a hostile value is. Also the UTF-8 check the XML reader needs.
//
//   printable("a\nb\x1b[2J")          // "a\\nb\\x1b[2J": one line, no escape sequence
//   quote_value(std::string(10'000'000, 'x'))  // "'xxx...xxx' (10000000 bytes)", ~80 characters
//   utf8_error("ok\xff") == 2         // byte offset of the first invalid byte, npos when valid
#include <cstddef>
#include <string>
#include <string_view>

namespace rave {

/// Length in bytes of the valid UTF-8 sequence starting at text[at] (1-4), or 0 when the bytes
/// there are not valid UTF-8 (a stray continuation byte, an overlong form, a surrogate, a value
/// above U+10FFFF or a sequence cut short).
std::size_t utf8_sequence_length(std::string_view text, std::size_t at);
/// Offset of the first byte that is not valid UTF-8, or std::string_view::npos when all of it is.
std::size_t utf8_error(std::string_view text);
/// `text` with control characters written as \n, \r, \t or \xNN and bytes that are not valid UTF-8
/// as \xNN: one line of valid UTF-8 that a terminal shows literally. Idempotent.
std::string printable(std::string_view text);
/// A value for an error message: printable, in single quotes, cut after `max_chars` bytes with
/// "..." and the full length when longer.
std::string quote_value(std::string_view value, std::size_t max_chars = 80);

}  // namespace rave
