// Means, standard deviations and t intervals against hand computation and the printed t table.
#include "evaluation/scoring/stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace rave::evaluation {
namespace {

TEST(Stats, TQuantilesMatchThePrintedTable) {
  // Two-sided 95% values of Student's t (any statistics table).
  const std::vector<std::pair<int, double>> table{
      {1, 12.706}, {2, 4.303},  {3, 3.182},  {4, 2.776},  {5, 2.571},  {9, 2.262},
      {10, 2.228}, {20, 2.086}, {30, 2.042}, {60, 2.000}, {120, 1.980}};
  for (const auto& [df, t] : table) EXPECT_NEAR(t_quantile_975(df), t, 5e-4) << "df " << df;
  EXPECT_NEAR(t_quantile_975(100000), 1.95996, 1e-4);  // the normal limit
}

TEST(Stats, CentralProbabilityOfKnownPoints) {
  EXPECT_NEAR(t_central_probability(1.0, 1), 0.5, 1e-12);  // Cauchy: atan(1) * 2 / pi
  EXPECT_NEAR(t_central_probability(0.0, 7), 0.0, 1e-12);
  EXPECT_NEAR(t_central_probability(4.302652730, 2), 0.95, 1e-9);  // t / sqrt(2 + t^2) for df 2
}

TEST(Stats, SummaryOfThreeSeedsByHand) {
  // 30, 33, 36: mean 33, squares 9 + 0 + 9 = 18, sd sqrt(18 / 2) = 3,
  // half-width t(0.975, 2) * 3 / sqrt(3) = 4.302652730 * 1.732050808 = 7.452413.
  const std::vector<double> v{30, 33, 36};
  const Summary s = summarize(v);
  EXPECT_EQ(s.n, 3);
  EXPECT_DOUBLE_EQ(s.mean, 33);
  EXPECT_NEAR(s.sd, 3, 1e-12);
  EXPECT_NEAR(s.half_width, 7.452413, 1e-6);
  EXPECT_NEAR(s.low(), 25.547587, 1e-6);
  EXPECT_NEAR(s.high(), 40.452413, 1e-6);
}

TEST(Stats, FiveUnevenValuesByHand) {
  // 12.5, 14, 11, 13.5, 15: mean 13.2, deviations -0.7 0.8 -2.2 0.3 1.8, squares sum 9.3,
  // sd sqrt(9.3 / 4) = 1.524795, half-width 2.776445 * 1.524795 / sqrt(5) = 1.893283.
  const std::vector<double> v{12.5, 14, 11, 13.5, 15};
  const Summary s = summarize(v);
  EXPECT_NEAR(s.mean, 13.2, 1e-12);
  EXPECT_NEAR(s.sd, 1.524795, 1e-6);
  EXPECT_NEAR(s.half_width, 1.893283, 1e-6);
}

TEST(Stats, OneValueHasNoIntervalAndNaNsAreSkipped) {
  const std::vector<double> one{40.0};
  const Summary s = summarize(one);
  EXPECT_EQ(s.n, 1);
  EXPECT_DOUBLE_EQ(s.mean, 40.0);
  EXPECT_TRUE(std::isnan(s.sd));
  EXPECT_TRUE(std::isnan(s.half_width));
  const std::vector<double> with_nan{10, NAN, 20};
  EXPECT_EQ(summarize(with_nan).n, 2);
  EXPECT_DOUBLE_EQ(summarize(with_nan).mean, 15);
  EXPECT_TRUE(std::isnan(summarize(std::vector<double>{}).mean));
}

TEST(Stats, WilsonIntervalByHand) {
  // 5 of 10: p = 0.5, z^2 = 3.841459; centre (0.5 + 0.192073) / 1.384146 = 0.5,
  // half 1.959964 / 1.384146 * sqrt(0.025 + 0.009604) = 1.416010 * 0.186021 = 0.263407.
  const Bounds half = wilson_interval(5, 10);
  EXPECT_NEAR(half.low, 0.236593, 1e-6);
  EXPECT_NEAR(half.high, 0.763407, 1e-6);
  // 0 of 10: [0, z^2 / (n + z^2)] = [0, 3.841459 / 13.841459] = [0, 0.277533].
  EXPECT_DOUBLE_EQ(wilson_interval(0, 10).low, 0.0);
  EXPECT_NEAR(wilson_interval(0, 10).high, 0.277533, 1e-6);
  EXPECT_NEAR(wilson_interval(10, 10).low, 1 - 0.277533, 1e-6);
  const Summary s = binomial_summary(5, 10);
  EXPECT_EQ(s.interval, IntervalKind::kWilson);
  EXPECT_DOUBLE_EQ(s.mean, 50.0);
  EXPECT_NEAR(s.low(), 23.6593, 1e-4);
  EXPECT_NEAR(s.high(), 76.3407, 1e-4);
  EXPECT_TRUE(std::isnan(binomial_summary(0, 0).mean));
  EXPECT_FALSE(binomial_summary(0, 0).has_interval());
}

TEST(Stats, SeedIntervalsAreClippedToTheRange) {
  // 100, 100, 0: mean 66.67, sd 57.735, half 4.302653 * 57.735 / sqrt(3) = 143.42, which the
  // unclipped interval [-76.75, 210.09] shows; clipped it is [0, 100].
  const std::vector<double> v{100, 100, 0};
  const Summary open = summarize(v);
  EXPECT_NEAR(open.half_width, 143.4218, 1e-4);
  EXPECT_NEAR(open.low(), 66.666667 - 143.4218, 1e-4);
  const Summary s = summarize(v, 0, 100);
  EXPECT_NEAR(s.half_width, 143.4218, 1e-4);  // the t half-width itself is kept
  EXPECT_DOUBLE_EQ(s.low(), 0.0);
  EXPECT_DOUBLE_EQ(s.high(), 100.0);
  EXPECT_EQ(s.interval, IntervalKind::kStudentT);
  // 30, 33, 36 stays inside and is not moved.
  const std::vector<double> inside{30, 33, 36};
  EXPECT_NEAR(summarize(inside, 0, 100).low(), 25.547587, 1e-6);
}

}  // namespace
}  // namespace rave::evaluation
