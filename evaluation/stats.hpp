#pragma once
// Summaries of one accuracy measured several times (one prediction file per training seed): mean,
// sample standard deviation and a two-sided 95% confidence interval for the mean from Student's t
// with n - 1 degrees of freedom (mean +- t(0.975, n-1) * sd / sqrt(n)). With few seeds, as in every
// CPU-scale run, t is the honest choice: with 3 seeds the interval is 2.48 sd wide on each side
// of the mean, not the normal approximation's 1.13.
//
//   Summary s = summarize({30.0, 33.0, 36.0});   // s.mean 33, s.sd 3, s.half_width 7.45
//   double t = t_quantile_975(2);                 // 4.3027
#include <span>

namespace rave::evaluation {

/// Mean, spread and 95% interval of a handful of measurements.
struct Summary {
  int n = 0;              ///< measurements (NaNs left out)
  double mean = 0;        ///< NaN when n == 0
  double sd = 0;          ///< sample standard deviation (n - 1 in the denominator); NaN when n < 2
  double half_width = 0;  ///< t(0.975, n - 1) * sd / sqrt(n); NaN when n < 2
  double low() const { return mean - half_width; }   ///< the interval's lower end
  double high() const { return mean + half_width; }  ///< the interval's upper end
};

/// Summarizes `values` (NaN entries are not counted).
Summary summarize(std::span<const double> values);

/// The 97.5% quantile of Student's t with `df` >= 1 degrees of freedom (the two-sided 95% value),
/// from the exact finite-series CDF for integer df (Abramowitz & Stegun 26.7.3-4), inverted by
/// bisection.
double t_quantile_975(int df);

/// P(|T| < t) for Student's t with `df` >= 1 degrees of freedom.
double t_central_probability(double t, int df);

}  // namespace rave::evaluation
