#pragma once
// Value semantics of the rules (docs/rules.md#number-and-position-rules,
// docs/rules.md#type-size-and-color-rules) and the sampling likelihoods of the generator
// (docs/solver.md#posterior), as small pure functions on levels, counts and slot sets. Decisive
// details (docs/solver.md#details-that-decide): Size Arithmetic is on 1-based levels, Color
// Arithmetic on raw levels, Number Arithmetic on counts; the col2 range of an Arithmetic rule
// depends on col1.
//
//   Range r = arithmetic_col2_range(ArithKind::kSize, +1, narrowed, /*col1=*/2);
//   int col3 = arithmetic_apply(ArithKind::kSize, +1, 2, 1);   // (2+1) + (1+1) - 1 = 4
#include <array>
#include <cstdint>
#include <limits>

#include "common/math.hpp"
#include "engine/model/attributes.hpp"

namespace rave::solver {

/// What an Arithmetic rule adds: Number levels (as counts), Size levels (1-based), Color levels
/// (raw).
enum class ArithKind { kNumber, kSize, kColor };

/// x / 2 rounded down (Python's x // 2).
inline int floor_div2(int x) { return x >= 0 ? x / 2 : -((-x + 1) / 2); }

/// The range col2 is drawn from given col1's level `col1` and the rule's narrowed range
/// (Arithmetic Number: docs/rules.md#number-and-position-rules; Size and Color:
/// #type-size-and-color-rules); the
/// original range is recovered from the narrowed one exactly as the generator does (floor
/// division).
inline engine::Range arithmetic_col2_range(ArithKind kind, int sign, engine::Range narrowed,
                                           int col1) {
  if (kind == ArithKind::kColor) {
    if (sign > 0)
      return {narrowed.min, narrowed.min + narrowed.max - col1};  // orig max = min + max
    const int orig_min = floor_div2(narrowed.min);                // min was 2 * orig min
    return {orig_min, col1};
  }
  // Number (counts) and Size (1-based levels): col3 + 1 = (col1 + 1) +- (col2 + 1).
  if (sign > 0) return {narrowed.min, narrowed.min + narrowed.max + 1 - col1 - 1};
  const int orig_min = floor_div2(narrowed.min - 1);  // min was 2 * orig min + 1
  return {orig_min, col1 - orig_min - 1};
}

/// col3's level from col1's and col2's levels.
inline int arithmetic_apply(ArithKind kind, int sign, int col1, int col2) {
  if (kind == ArithKind::kColor) return sign > 0 ? col1 + col2 : col1 - col2;
  return sign > 0 ? col1 + col2 + 1 : col1 - col2 - 1;
}

/// Tables behind log_choose and log_int (filled before main; read-only after).
struct LogTables {
  std::array<std::array<double, 10>, 10> choose;  ///< log C(n, k), -inf for k > n
  std::array<double, 64> ints;                    ///< log n, -inf for 0
};
extern const LogTables kLogTables;
/// log C(n, k) for 0 <= k <= n <= 9 (-inf outside).
inline double log_choose(int n, int k) {
  if (static_cast<unsigned>(n) > 9 || static_cast<unsigned>(k) > 9)
    return -std::numeric_limits<double>::infinity();
  return kLogTables.choose[n][k];
}
/// log of a positive integer (table lookup below 64); -inf for n <= 0.
double log_int_slow(int n);
inline double log_int(int n) {
  return static_cast<unsigned>(n) < 64 ? kLogTables.ints[n] : log_int_slow(n);
}

/// Probability that a col2 slot set drawn as Arithmetic Position draws it (count uniform in
/// `narrowed`, then a uniform set of that size) is accepted given col1's set: for union (+) col2
/// must not be a subset of col1, for difference (-) col1 must not be a subset of col2
/// (docs/rules.md#number-and-position-rules).
double arithmetic_position_accept(int sign, engine::Range narrowed, int slots, int col1_count);

/// Color Arithmetic guard (docs/rules.md#type-size-and-color-rules): after row 1 drew col2 = 0, row
/// 2's col1 level may not be the one whose col2 range is {0}, and row 2's col2 is redrawn if 0.
/// Log-likelihood of row 2's (col1, col2) under that guard; -inf when the guard forbids them.
double guarded_color_row2_log_lik(int sign, engine::Range narrowed, int col1, int col2);

/// Distribute_Three on any per-panel value (a level, a count or a slot set) over the 8 context
/// panels: row 1 holds three distinct values, row 2 one rotation of them and row 3 the other (a
/// Latin square, docs/rules.md#number-and-position-rules, docs/rules.md#type-size-and-color-rules).
/// On success writes row 3's third value, the prediction.
template <class Value>
bool latin_rows(const std::array<Value, 8>& x, Value& third) {
  if (x[0] == x[1] || x[0] == x[2] || x[1] == x[2]) return false;
  std::array<Value, 3> row3;
  if (x[3] == x[1] && x[4] == x[2] && x[5] == x[0])
    row3 = {x[2], x[0], x[1]};
  else if (x[3] == x[2] && x[4] == x[0] && x[5] == x[1])
    row3 = {x[1], x[2], x[0]};
  else
    return false;
  if (x[6] != row3[0] || x[7] != row3[1]) return false;
  third = row3[2];
  return true;
}

}  // namespace rave::solver
