#include "common/pyformat.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string_view>

namespace rave {
namespace {

// The shortest round-trip representation of a finite positive value: its significant digits and
// the decimal exponent of the first digit (value = d1.d2d3... * 10^exponent). No allocation.
struct Shortest {
  char digits[32];
  std::size_t count = 0;
  int exponent = 0;
  std::string_view view() const { return {digits, count}; }
};

Shortest shortest_digits(double value) {
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  const std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  const std::size_t e = text.find('e');
  Shortest s;
  for (char c : text.substr(0, e))
    if (c != '.') s.digits[s.count++] = c;
  const char* first = text.data() + e + 1;
  if (*first == '+') ++first;
  std::from_chars(first, text.data() + text.size(), s.exponent);
  return s;
}

void append_fixed(std::string& out, std::string_view digits, int exponent) {
  const int n = static_cast<int>(digits.size());
  if (exponent < 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-exponent - 1), '0');
    out += digits;
  } else if (exponent + 1 >= n) {
    out += digits;
    out.append(static_cast<std::size_t>(exponent + 1 - n), '0');
    out += ".0";
  } else {
    out += digits.substr(0, static_cast<std::size_t>(exponent + 1));
    out += '.';
    out += digits.substr(static_cast<std::size_t>(exponent + 1));
  }
}

void append_scientific(std::string& out, std::string_view digits, int exponent) {
  out += digits[0];
  if (digits.size() > 1) {
    out += '.';
    out += digits.substr(1);
  }
  out += exponent < 0 ? "e-" : "e+";
  const int magnitude = std::abs(exponent);
  if (magnitude < 10) out += '0';
  char buffer[8];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, magnitude).ptr;
  out.append(buffer, end);
}

}  // namespace

void append_shortest_float(std::string& out, double value, int fixed_below) {
  if (std::signbit(value)) out += '-';
  value = std::fabs(value);
  if (value == 0.0) {
    out += "0.0";
    return;
  }
  const Shortest s = shortest_digits(value);
  if (s.exponent >= -4 && s.exponent < fixed_below)
    append_fixed(out, s.view(), s.exponent);
  else
    append_scientific(out, s.view(), s.exponent);
}

void append_py_float(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "nan";
    return;
  }
  if (std::isinf(value)) {
    out += std::signbit(value) ? "-inf" : "inf";
    return;
  }
  append_shortest_float(out, value, 16);
}

void append_py_tenths(std::string& out, long long k) {
  constexpr long long kExact = 1'000'000'000'000'000;  // 1e15 / 10 is still below repr's 1e16
  if (k <= -kExact || k >= kExact) return append_py_float(out, static_cast<double>(k) / 10.0);
  if (k < 0) out += '-';
  const unsigned long long magnitude =
      k < 0 ? 0ULL - static_cast<unsigned long long>(k) : static_cast<unsigned long long>(k);
  char buffer[24];
  out.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, magnitude / 10).ptr);
  out += '.';
  out += static_cast<char>('0' + magnitude % 10);
}

std::string format_py_float(double value) {
  std::string out;
  append_py_float(out, value);
  return out;
}

double numpy_round(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::nearbyint(value * scale) / scale;
}

}  // namespace rave
