#include "common/error.hpp"

namespace rave {
namespace {

std::string compose(const std::string& file, const std::string& place, const std::string& message) {
  std::string out;
  out.reserve(file.size() + place.size() + message.size() + 16);
  out.append(file.empty() ? std::string_view("<input>") : std::string_view(file));
  if (!place.empty()) out.append(":").append(place);
  out.append(": ").append(message);
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
