#include "evaluation/scoring/stats.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "common/error.hpp"

namespace rave::evaluation {

// A&S 26.7.3 (odd df) and 26.7.4 (even df): with theta = atan(t / sqrt(df)),
//   even: sin(theta) * (1 + 1/2 c^2 + 1*3/(2*4) c^4 + ... up to c^(df-2))
//   odd:  2/pi * (theta + sin(theta) cos(theta) * (1 + 2/3 c^2 + 2*4/(3*5) c^4 + ... up to
//   c^(df-3)))
// where c = cos(theta); the sums are finite, so the value is exact up to rounding.
double t_central_probability(double t, int df) {
  RAVE_CHECK(df >= 1, "degrees of freedom must be at least 1");
  const double theta = std::atan(std::abs(t) / std::sqrt(static_cast<double>(df)));
  const double c2 = std::cos(theta) * std::cos(theta);
  double term = 1, sum = 1;
  if (df % 2 == 0) {
    for (int k = 2; k <= df - 2; k += 2) sum += (term *= c2 * (k - 1) / k);
    return std::sin(theta) * sum;
  }
  if (df == 1) return 2 * theta / std::numbers::pi;
  for (int k = 3; k <= df - 2; k += 2) sum += (term *= c2 * (k - 1) / k);
  return 2 / std::numbers::pi * (theta + std::sin(theta) * std::cos(theta) * sum);
}

double t_quantile_975(int df) {
  RAVE_CHECK(df >= 1, "degrees of freedom must be at least 1");
  double lo = 0, hi = 64;  // t(0.975, 1) = 12.7
  for (int i = 0; i < 200 && hi - lo > 1e-12; ++i) {
    const double mid = (lo + hi) / 2;
    (t_central_probability(mid, df) < 0.95 ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

std::string_view interval_name(IntervalKind kind) {
  switch (kind) {
    case IntervalKind::kWilson: return "wilson";
    case IntervalKind::kStudentT: return "t";
    case IntervalKind::kNone: break;
  }
  return "";
}

Summary summarize(std::span<const double> values, double lo, double hi) {
  Summary s;
  double sum = 0;
  for (double v : values)
    if (!std::isnan(v)) sum += v, ++s.n;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  s.mean = s.n == 0 ? nan : sum / s.n;
  if (s.n < 2) {
    s.sd = s.half_width = nan;
    return s;
  }
  double squares = 0;
  for (double v : values)
    if (!std::isnan(v)) squares += (v - s.mean) * (v - s.mean);
  s.sd = std::sqrt(squares / (s.n - 1));
  s.half_width = t_quantile_975(s.n - 1) * s.sd / std::sqrt(static_cast<double>(s.n));
  s.ci_low = std::clamp(s.mean - s.half_width, lo, hi);
  s.ci_high = std::clamp(s.mean + s.half_width, lo, hi);
  s.interval = IntervalKind::kStudentT;
  return s;
}

// Wilson (1927): the p whose normal test at 95% does not reject the observed proportion,
// (p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n).
Bounds wilson_interval(double correct, int items) {
  RAVE_CHECK(items > 0 && correct >= 0 && correct <= items, "a proportion of at least one item");
  constexpr double z = 1.959963984540054;  // the normal 97.5% quantile
  const double n = items, p = correct / n, z2 = z * z;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

Summary binomial_summary(double correct, int items) {
  Summary s{.n = 1};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  s.sd = s.half_width = nan;
  if (items <= 0) {
    s.mean = nan;
    return s;
  }
  s.mean = 100.0 * correct / items;
  const Bounds b = wilson_interval(correct, items);
  s.ci_low = 100.0 * b.low, s.ci_high = 100.0 * b.high;
  s.interval = IntervalKind::kWilson;
  return s;
}

}  // namespace rave::evaluation
