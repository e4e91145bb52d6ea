#include "common/pyformat.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace rave {
namespace {

// Splits the shortest round-trip representation of a finite positive value into its significant
// digits and the decimal exponent of the first digit (value = 0.d1d2... * 10^(exp+1)).
void shortest_digits(double value, std::string& digits, int& exponent) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific);
  std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  const auto e = text.find('e');
  digits.clear();
  for (char c : text.substr(0, e))
    if (c != '.') digits.push_back(c);
  exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
}

void append_fixed(std::string& out, const std::string& digits, int exponent) {
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
    out.append(digits, 0, static_cast<std::size_t>(exponent + 1));
    out += '.';
    out.append(digits, static_cast<std::size_t>(exponent + 1));
  }
}

void append_scientific(std::string& out, const std::string& digits, int exponent) {
  out += digits[0];
  if (digits.size() > 1) {
    out += '.';
    out.append(digits, 1);
  }
  out += exponent < 0 ? "e-" : "e+";
  const int magnitude = std::abs(exponent);
  if (magnitude < 10) out += '0';
  out += std::to_string(magnitude);
}

}  // namespace

void append_py_float(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "nan";
    return;
  }
  if (std::signbit(value)) out += '-';
  value = std::fabs(value);
  if (std::isinf(value)) {
    out += "inf";
    return;
  }
  if (value == 0.0) {
    out += "0.0";
    return;
  }
  std::string digits;
  int exponent = 0;
  shortest_digits(value, digits, exponent);
  if (exponent >= -4 && exponent < 16)
    append_fixed(out, digits, exponent);
  else
    append_scientific(out, digits, exponent);
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
