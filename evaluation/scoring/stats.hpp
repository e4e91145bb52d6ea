#pragma once
// Summaries of an accuracy and its 95% interval (docs/evaluation.md#intervals):
//  - one run (the usual LLM case): the binomial Wilson score interval of `correct` of `items`,
//    (p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n), z = 1.959964; it stays inside
//    [0, 1] by construction and is honest near 0% and 100%, where the normal one collapses;
//  - several runs (one prediction file per training seed): Student's t with n - 1 degrees of
//    freedom around the mean of the runs, mean -+ t(0.975, n-1) * sd / sqrt(n), clipped to the
//    range an accuracy can take. With 3 seeds the interval is 2.48 sd wide on each side of the
//    mean, not the normal approximation's 1.13.
//
//   Summary s = summarize({30.0, 33.0, 36.0}, 0, 100);  // mean 33, sd 3, [25.55, 40.45]
//   Summary w = binomial_summary(5, 10);                 // 50, Wilson [23.66, 76.34]
//   double t = t_quantile_975(2);                        // 4.3027
#include <limits>
#include <span>
#include <string_view>

namespace rave::evaluation {

/// Which interval a Summary carries.
enum class IntervalKind { kNone, kWilson, kStudentT };
std::string_view interval_name(IntervalKind kind);  ///< "", "wilson", "t"

/// Mean, spread and 95% interval of one accuracy.
struct Summary {
  int n = 0;              ///< measurements (runs; NaNs left out)
  double mean = 0;        ///< NaN when n == 0
  double sd = 0;          ///< sample standard deviation over runs (n - 1); NaN when n < 2
  double half_width = 0;  ///< t: t(0.975, n - 1) * sd / sqrt(n) before clipping; else NaN
  double ci_low = std::numeric_limits<double>::quiet_NaN();   ///< the interval's lower end
  double ci_high = std::numeric_limits<double>::quiet_NaN();  ///< its upper end
  IntervalKind interval = IntervalKind::kNone;
  double low() const { return ci_low; }    ///< the interval's lower end (NaN when none)
  double high() const { return ci_high; }  ///< the interval's upper end (NaN when none)
  bool has_interval() const { return interval != IntervalKind::kNone; }
};

/// Summarizes `values` (NaN entries are not counted): with 2 or more, the t interval clipped to
/// [lo, hi] (half_width stays the unclipped one).
Summary summarize(std::span<const double> values,
                  double lo = -std::numeric_limits<double>::infinity(),
                  double hi = std::numeric_limits<double>::infinity());

/// One run of `items` problems of which `correct` (possibly fractional: tied credit) were right,
/// in percent, with the Wilson 95% interval; n = 1, mean NaN and no interval when items == 0.
Summary binomial_summary(double correct, int items);

/// The Wilson score 95% interval of `correct` of `items` > 0, as fractions {low, high}.
struct Bounds {
  double low = 0, high = 0;
};
Bounds wilson_interval(double correct, int items);

/// The 97.5% quantile of Student's t with `df` >= 1 degrees of freedom (the two-sided 95% value),
/// from the exact finite-series CDF for integer df (Abramowitz & Stegun 26.7.3-4), inverted by
/// bisection.
double t_quantile_975(int df);

/// P(|T| < t) for Student's t with `df` >= 1 degrees of freedom.
double t_central_probability(double t, int df);

}  // namespace rave::evaluation
