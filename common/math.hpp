#pragma once
// Small integer arithmetic shared by the engine and the solver: Python 2 integer division as the
// original generator uses it (docs/rules.md#narrowing, docs/rules.md#number-and-position-rules),
// and binomial coefficients (slot-set counts of a layout).
//
//   floor_div(5, 2) == 2;  floor_div(-1, 2) == -1;
//   binomial(9, 4) == 126;
#include <cstdint>

namespace rave {

/// a div b rounded towards minus infinity (b != 0).
constexpr int floor_div(int a, int b) {
  const int q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/// C(n, k); 0 when k < 0 or k > n. Exact for the small n of slot tables (no overflow below n = 60).
constexpr std::int64_t binomial(int n, int k) {
  if (k < 0 || k > n) return 0;
  std::int64_t result = 1;
  for (int i = 1; i <= k; ++i) result = result * (n - k + i) / i;
  return result;
}

}  // namespace rave
