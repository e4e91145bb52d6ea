#pragma once
// Lines of a text and places in it, one reading for every parser: a line ends at '\n' (a '\r'
// before it is dropped, so Windows files read the same), and a place is "line:col", both counted
// from 1, the column in bytes.
//
//   for (const TextLine& line : text_lines(text))   // "a\r\nb" -> "a" (1, offset 0), "b" (2, 3)
//     if (!line.text.empty()) read_entry(line.text, line.number);
//   throw InputError(file, line_col(text, offset), "unexpected ']'");   // "3:14"
#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>

namespace rave {

/// One line of a text.
struct TextLine {
  std::string_view text;   ///< without its '\n' and a '\r' just before it
  std::size_t offset = 0;  ///< where it starts in the text
  std::size_t number = 1;  ///< counted from 1
  bool ended = false;      ///< a '\n' ends it (false only for a last line without one)
};

/// The lines of a text in order: "a\nb" has two, "a\n" one, "" none.
class TextLines {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = TextLine;
    using difference_type = std::ptrdiff_t;
    using pointer = const TextLine*;
    using reference = const TextLine&;
    iterator() = default;
    iterator(std::string_view text, std::size_t offset, std::size_t number);
    reference operator*() const { return line_; }
    pointer operator->() const { return &line_; }
    iterator& operator++();
    iterator operator++(int) {
      iterator before = *this;
      ++*this;
      return before;
    }
    bool operator==(const iterator& other) const { return line_.offset == other.line_.offset; }

   private:
    std::string_view text_;
    std::size_t next_ = 0;  ///< where the line after this one starts
    TextLine line_;
  };
  explicit TextLines(std::string_view text) : text_(text) {}
  iterator begin() const { return {text_, 0, 1}; }
  iterator end() const { return {text_, text_.size(), 0}; }

 private:
  std::string_view text_;
};

/// The lines of `text` (which must outlive the loop).
inline TextLines text_lines(std::string_view text) { return TextLines(text); }

/// A place in a text: line and column, both from 1, the column in bytes.
struct TextPosition {
  std::size_t line = 1;
  std::size_t column = 1;
  /// The place reached by reading `text` from here.
  TextPosition after(std::string_view text) const;
};

/// The place of byte `offset` of `text` (of its end when `offset` lies beyond it).
TextPosition position_of(std::string_view text, std::size_t offset);
/// "line:col", as errors name a place.
std::string line_col(TextPosition at);
/// "line:col" of byte `offset` of `text`.
std::string line_col(std::string_view text, std::size_t offset);

}  // namespace rave
