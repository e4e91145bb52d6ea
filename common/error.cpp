#include "common/error.hpp"

#include <algorithm>

#include "common/text.hpp"

namespace rave {
namespace {

// Longest message shown in full; readers quote values with rave::quoted, this bounds the rest.
constexpr std::size_t kMaxMessage = 1000;
constexpr std::size_t kMaxPlace = 300;
constexpr std::size_t kMaxFile = 4096;  // PATH_MAX: a path is shown whole

// printable(text), at most `max` bytes of it: cut before an escape or a UTF-8 sequence it would
// split (printable writes a bad byte as four characters, so the input's length does not bound it).
std::string printable_bounded(std::string_view text, std::size_t max, const char* cut_note) {
  std::string out = printable(text.substr(0, max));
  if (out.size() <= max && text.size() <= max) return out;
  std::size_t cut = std::min(out.size(), max);
  while (cut > 0 && cut < out.size() && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80)
    --cut;
  for (std::size_t back = 1; back <= 3 && back <= cut; ++back)
    if (out[cut - back] == '\\') {
      cut -= back;
      break;
    }
  out.resize(cut);
  return out + cut_note;
}

// One printable line whatever the file name, place and message hold (common/text.hpp), bounded.
std::string compose(const std::string& file, const std::string& place, const std::string& message) {
  std::string out =
      printable_bounded(file.empty() ? std::string_view("<input>") : file, kMaxFile, "...");
  if (!place.empty()) out += ':' + printable_bounded(place, kMaxPlace, "...");
  out += ": ";
  out += printable_bounded(message, kMaxMessage, "... (message cut)");
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
