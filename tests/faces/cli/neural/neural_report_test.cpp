#include "cli/neural/neural_report.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace rave::cli {
namespace {

neural::EpochMetrics epoch(int n, double train, double val) {
  neural::EpochMetrics m;
  m.epoch = n;
  m.train_accuracy = train;
  m.val_accuracy = val;
  return m;
}

// Without --log-test the chart has train and validation only, even where a record carries counts.
TEST(CurveSeries, TrainAndValidationWithoutLoggedTest) {
  std::vector<neural::EpochMetrics> history{epoch(1, 0.25, 0.125), epoch(2, 0.5, 0.25)};
  history[1].test.correct[0] = 3, history[1].test.total[0] = 4;  // not logged: has_test is false
  const auto series = curve_series(history);
  ASSERT_EQ(series.size(), 2U);
  EXPECT_EQ(series[0].y, (std::vector<double>{25.0, 50.0}));
  EXPECT_EQ(series[1].y, (std::vector<double>{12.5, 25.0}));
}

// A run resumed with --log-test: the test's series, in percent, with a gap where it was not logged.
TEST(CurveSeries, LoggedTestIsAThirdSeriesWithGaps) {
  std::vector<neural::EpochMetrics> history{epoch(1, 0.25, 0.125), epoch(2, 0.5, 0.25),
                                            epoch(3, 0.75, 0.5)};
  for (int e : {1, 2}) {
    history[e].has_test = true;
    history[e].test.correct = {1, 2};
    history[e].test.total = {4, 4};
  }
  history[2].test.correct = {4, 3};
  const auto series = curve_series(history);
  ASSERT_EQ(series.size(), 3U);
  EXPECT_EQ(series[2].name, "test (diagnosis only)");
  ASSERT_EQ(series[2].y.size(), 3U);
  EXPECT_TRUE(std::isnan(series[2].y[0]));
  EXPECT_DOUBLE_EQ(series[2].y[1], 37.5);
  EXPECT_DOUBLE_EQ(series[2].y[2], 87.5);
  auto unlogged = history;  // the same curves without the test: the chart draws one line fewer
  for (auto& m : unlogged) m.has_test = false;
  EXPECT_NE(curves_png("CNN", history), curves_png("CNN", unlogged));
}

}  // namespace
}  // namespace rave::cli
