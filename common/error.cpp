#include "common/error.hpp"

#include <algorithm>

#include "common/text.hpp"

namespace rave {
namespace {

// Longest message shown in full; readers quote values with rave::quoted, this bounds the rest.
constexpr std::size_t kMaxMessage = 1000;
constexpr std::size_t kMaxPlace = 300;

// One printable line whatever the file name, place and message hold (common/text.hpp).
std::string compose(const std::string& file, const std::string& place, const std::string& message) {
  std::string out;
  out.reserve(file.size() + place.size() + std::min(message.size(), kMaxMessage) + 32);
  out += printable(file.empty() ? std::string_view("<input>") : std::string_view(file));
  if (!place.empty()) {
    out += ':';
    out += printable(std::string_view(place).substr(0, kMaxPlace));
    if (place.size() > kMaxPlace) out += "...";
  }
  out += ':';
  out += ' ';
  out += printable(std::string_view(message).substr(0, kMaxMessage));
  if (message.size() > kMaxMessage) out += "... (message cut)";
  return out;
}

}  // namespace

InputError::InputError(std::string file, std::string place, const std::string& message)
    : Error(compose(file, place, message)),
      file_(std::move(file)),
      place_(std::move(place)),
      message_(message) {}

void check_failed(const char* condition, const std::string& message, const char* file, int line) {
  std::string text = "internal error: ";
  text.append(message).append(" (").append(condition).append(" at ").append(file);
  text.append(":").append(std::to_string(line)).append(")");
  throw std::logic_error(text);
}

}  // namespace rave
