#include "evaluation/stats.hpp"

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

Summary summarize(std::span<const double> values) {
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
  return s;
}

}  // namespace rave::evaluation
