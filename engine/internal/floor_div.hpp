#pragma once
// Python 2 integer division as the original generator uses it (spec/raven.md 4.3, 6.2, 14): the
// quotient rounded towards minus infinity, also for negative numerators.
//
//   floor_div(5, 2) == 2;  floor_div(-1, 2) == -1;
namespace rave::engine::internal {

/// a div b rounded towards minus infinity (b != 0).
constexpr int floor_div(int a, int b) {
  const int q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

}  // namespace rave::engine::internal
