// The paired comparison of two models: McNemar's exact p against hand-counted binomial tails, the
// difference and discordant counts of hand-made credits, a bootstrap interval that holds the
// difference and is the same on every run, and a seeds row refused.
#include "evaluation/scoring/paired.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "common/error.hpp"

namespace rave::evaluation {
namespace {

ReportRow row(std::string label, std::vector<double> credits) {
  ReportRow r;
  r.label = std::move(label);
  r.credits = std::move(credits);
  return r;
}

TEST(Paired, McNemarExactIsTheTwoSidedBinomialTail) {
  EXPECT_DOUBLE_EQ(mcnemar_exact_p(0, 0), 1.0);
  EXPECT_NEAR(mcnemar_exact_p(0, 5), 2.0 / 32, 1e-12);
  EXPECT_NEAR(mcnemar_exact_p(2, 10), 2.0 * (1 + 10 + 45) / 1024, 1e-12);
  EXPECT_NEAR(mcnemar_exact_p(8, 10), 2.0 * (1 + 10 + 45) / 1024, 1e-12);  // symmetric
  EXPECT_DOUBLE_EQ(mcnemar_exact_p(5, 10), 1.0);                           // capped at 1
}

TEST(Paired, CountsOnlyProblemsBothAreScoredOn) {
  const double nan = std::nan("");
  const auto c = compare_paired(row("a", {1, 1, 1, 0, nan, 1}), row("b", {1, 0, 0, 0, 1, nan}));
  EXPECT_EQ(c.problems, 4);
  EXPECT_DOUBLE_EQ(c.only_a, 2);
  EXPECT_DOUBLE_EQ(c.only_b, 0);
  EXPECT_DOUBLE_EQ(c.difference, 50);
  EXPECT_NEAR(c.mcnemar_p, 0.5, 1e-12);
  EXPECT_LE(c.low, c.difference);
  EXPECT_GE(c.high, c.difference);
  EXPECT_GE(c.low, 0);  // a is never worse on any problem: no resample can favour b
  const auto again = compare_paired(row("a", {1, 1, 1, 0, nan, 1}), row("b", {1, 0, 0, 0, 1, nan}));
  EXPECT_EQ(again.low, c.low);
  EXPECT_EQ(again.high, c.high);
}

TEST(Paired, TiedCreditCountsItsShare) {
  const auto c = compare_paired(row("a", {0.5, 1}), row("b", {0, 1}));
  EXPECT_DOUBLE_EQ(c.only_a, 0.5);
  EXPECT_DOUBLE_EQ(c.difference, 25);
}

TEST(Paired, ARowOverSeedsIsRefused) {
  ReportRow seeds = row("cnn", {});
  seeds.note = "3 seeds";
  EXPECT_THROW(compare_paired(seeds, row("b", {1})), InputError);
}

}  // namespace
}  // namespace rave::evaluation
