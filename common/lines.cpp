#include "common/lines.hpp"

#include <algorithm>

namespace rave {

TextLines::iterator::iterator(std::string_view text, std::size_t offset, std::size_t number)
    : text_(text), next_(offset) {
  line_.offset = offset;
  line_.number = number;
  if (offset < text.size()) {
    line_.number = number - 1;  // ++ below reads line `number`
    ++*this;
  }
}

TextLines::iterator& TextLines::iterator::operator++() {
  line_.offset = next_;
  ++line_.number;
  if (next_ >= text_.size()) {
    line_.text = {};
    line_.ended = false;
    return *this;
  }
  const std::size_t newline = text_.find('\n', next_);
  line_.ended = newline != std::string_view::npos;
  const std::size_t end = line_.ended ? newline : text_.size();
  line_.text = text_.substr(next_, end - next_);
  if (!line_.text.empty() && line_.text.back() == '\r') line_.text.remove_suffix(1);
  next_ = line_.ended ? end + 1 : end;
  return *this;
}

TextPosition TextPosition::after(std::string_view text) const {
  TextPosition at = *this;
  const std::size_t newline = text.rfind('\n');
  if (newline == std::string_view::npos) {
    at.column += text.size();
    return at;
  }
  at.line += static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
  at.column = text.size() - newline;
  return at;
}

TextPosition position_of(std::string_view text, std::size_t offset) {
  return TextPosition{}.after(text.substr(0, std::min(offset, text.size())));
}

std::string line_col(TextPosition at) {
  return std::to_string(at.line) + ":" + std::to_string(at.column);
}

std::string line_col(std::string_view text, std::size_t offset) {
  return line_col(position_of(text, offset));
}

}  // namespace rave
