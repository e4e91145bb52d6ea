#pragma once
// SyntaxError: a malformed sentence, located. what() is one self-contained line,
// `file:line:col: expected X, got Y`, so the CLI can print it as its one-line error; excerpt() is
// the offending source line with a caret under the column, for tools that show more.
//
//   try { parse_sentence(text, "a.sentence"); }
//   catch (const SyntaxError& e) { std::cerr << e.detailed() << '\n'; }   // what() + excerpt()
#include <cstddef>
#include <string>
#include <string_view>

#include "common/error.hpp"

namespace rave::grammar {

/// A sentence that does not follow the grammar; an InputError whose place is "line:col".
class SyntaxError : public InputError {
 public:
  SyntaxError(std::string file, int line, int column, std::string expected, std::string got,
              std::string excerpt);
  int line() const { return line_; }                         ///< 1-based
  int column() const { return column_; }                     ///< 1-based, in bytes
  const std::string& expected() const { return expected_; }  ///< e.g. "a Component or '/'"
  const std::string& got() const { return got_; }            ///< e.g. "Layout 'Center_Single'"
  const std::string& excerpt() const { return excerpt_; }    ///< source line, '\n', caret line
  /// what(), a newline, and the excerpt.
  std::string detailed() const;

 private:
  int line_;
  int column_;
  std::string expected_;
  std::string got_;
  std::string excerpt_;
};

/// The error for a failure at byte `offset` of `text` (separators there are skipped first) where
/// `expected` was expected; "got" describes the token found there.
SyntaxError syntax_error_at(std::string_view text, std::size_t offset, std::string_view file,
                            std::string expected);
/// As above, with "got" given (for errors found after a token was read).
SyntaxError syntax_error_at(std::string_view text, std::size_t offset, std::string_view file,
                            std::string expected, std::string got);
/// True for the token separators of sentences: ASCII whitespace and '.'
/// (docs/format.md#structure-sentence).
bool is_separator(char c);

}  // namespace rave::grammar
