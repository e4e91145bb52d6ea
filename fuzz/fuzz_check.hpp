#pragma once
// What every libFuzzer target of fuzz/ checks: a broken property traps (a finding), and an
// InputError must be one printable line naming the file it was given.
#include <string_view>

#include "common/error.hpp"
#include "common/text.hpp"

namespace rave::fuzz {

inline void check(bool condition) {
  if (!condition) __builtin_trap();
}

/// An error a reader may throw on bad input: one line, printable, bounded, starting with `file`.
inline void check_error(const InputError& error, std::string_view file) {
  const std::string_view what = error.what();
  check(what.find('\n') == std::string_view::npos && what.find('\x1b') == std::string_view::npos);
  check(utf8_error(what) == std::string_view::npos);
  check(what.size() < 2000);
  check(what.substr(0, file.size()) == file);
}

}  // namespace rave::fuzz
