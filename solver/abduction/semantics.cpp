#include "solver/abduction/semantics.hpp"

#include <array>
#include <cmath>
#include <limits>

namespace rave::solver {
namespace {

constexpr double kMinusInf = -std::numeric_limits<double>::infinity();

}  // namespace

const LogTables kLogTables = [] {
  LogTables out;
  for (int n = 0; n < 10; ++n)
    for (int k = 0; k < 10; ++k)
      out.choose[n][k] = k <= n ? std::log(static_cast<double>(binomial(n, k))) : kMinusInf;
  out.ints[0] = kMinusInf;
  for (int i = 1; i < 64; ++i) out.ints[i] = std::log(static_cast<double>(i));
  return out;
}();

double log_int_slow(int n) { return n > 0 ? std::log(static_cast<double>(n)) : kMinusInf; }

double arithmetic_position_accept(int sign, engine::Range narrowed, int slots, int col1_count) {
  double p = 0;
  const int k = col1_count;
  for (int level = narrowed.min; level <= narrowed.max; ++level) {
    const int c = level + 1;
    const double all = static_cast<double>(binomial(slots, c));
    if (all == 0) continue;
    // Rejected sets: subsets of col1 (union) or supersets of col1 (difference).
    const double rejected = sign > 0 ? static_cast<double>(binomial(k, c))
                                     : static_cast<double>(binomial(slots - k, c - k));
    p += 1.0 - rejected / all;
  }
  return p / narrowed.size();
}

double guarded_color_row2_log_lik(int sign, engine::Range narrowed, int col1, int col2) {
  auto only_zero = [&](int x1) {
    const engine::Range r = arithmetic_col2_range(ArithKind::kColor, sign, narrowed, x1);
    return r.min == 0 && r.max == 0;
  };
  if (!narrowed.contains(col1) || only_zero(col1)) return kMinusInf;
  bool any_bad = false;
  for (int x = narrowed.min; x <= narrowed.max; ++x) any_bad = any_bad || only_zero(x);
  // A bad col1 is redrawn uniformly among the other levels: each good level gains 1/(R(R-1)).
  const int r = narrowed.size();
  const double log_col1 = any_bad ? -log_int(r - 1) : -log_int(r);
  const engine::Range col2_range = arithmetic_col2_range(ArithKind::kColor, sign, narrowed, col1);
  if (!col2_range.contains(col2)) return kMinusInf;
  if (!col2_range.contains(0)) return log_col1 - log_int(col2_range.size());
  if (col2 == 0) return kMinusInf;  // redrawn excluding 0: uniform over the other levels
  return log_col1 - log_int(col2_range.size() - 1);
}

}  // namespace rave::solver
