#pragma once
// Number formatting that matches what the original Python tools wrote into RAVEN files
// (docs/format.md#json-lists, #real_bbox): Python's float repr (shortest round-trip digits, fixed
// notation for decimal exponents in [-4, 16), "1.0" not "1"), and numpy's round-half-to-even to N
// decimals.
//
//   format_py_float(0.5) == "0.5";  format_py_float(1.0) == "1.0";
//   format_py_float(1e-5) == "1e-05";
//   numpy_round(0.71875, 4) == 0.7188
#include <string>

namespace rave {

/// Python 3 `repr(float)`.
std::string format_py_float(double value);
/// Appends Python 3 `repr(float)` to `out` (no allocation beyond the append).
void append_py_float(std::string& out, double value);
/// Appends Python 3 `repr(k / 10)` (the Size of a text prompt): k / 10.0 is the double nearest the
/// decimal k / 10, so its shortest digits are the decimal's ("0.3", "1.0", "-12.5").
void append_py_tenths(std::string& out, long long k);
/// Appends a finite value's shortest round-trip digits in Python's layout with fixed notation for
/// decimal exponents in [-4, fixed_below): 16 is Python's repr, 15 what nlohmann::json writes.
void append_shortest_float(std::string& out, double value, int fixed_below);
/// `numpy.round(value, decimals)`: value * 10^d, rounded half to even, divided by 10^d.
double numpy_round(double value, int decimals);

}  // namespace rave
