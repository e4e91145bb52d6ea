// The charts: the documented width, a height that grows with the legend, error bars and data that
// change the picture, NaN as a gap.
#include "engine/chart/chart.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace rave::engine {
namespace {

const ChartLabels kLabels{.title = "test accuracy",
                          .x_label = "configuration",
                          .y_label = "accuracy (%)",
                          .y_min = 0,
                          .y_max = 100,
                          .reference = 12.5,
                          .reference_label = "chance"};

std::size_t ink(const GrayImage& image) {
  std::size_t n = 0;
  for (auto p : image.pixels) n += p < 128;
  return n;
}

TEST(Chart, BarChartIsAWholePicture) {
  const GrayImage chart = bar_chart(kLabels, {"Avg", "Center"}, {{"CNN", {33.1, 28.5}, {}}});
  EXPECT_EQ(chart.width, 1000);
  EXPECT_GT(chart.height, 400);
  EXPECT_EQ(chart.pixels.size(),
            static_cast<std::size_t>(chart.width) * static_cast<std::size_t>(chart.height));
}

TEST(Chart, ErrorBarsAndValuesChangeThePicture) {
  const GrayImage plain = bar_chart(kLabels, {"Avg"}, {{"CNN", {40}, {}}});
  EXPECT_EQ(plain.pixels, bar_chart(kLabels, {"Avg"}, {{"CNN", {40}, {NAN}}}).pixels);
  EXPECT_NE(plain.pixels, bar_chart(kLabels, {"Avg"}, {{"CNN", {40}, {10}}}).pixels);
  EXPECT_GT(ink(bar_chart(kLabels, {"Avg"}, {{"CNN", {90}, {}}})),
            ink(plain));  // a taller dark bar
  EXPECT_LT(ink(bar_chart(kLabels, {"Avg"}, {{"CNN", {NAN}, {}}})), ink(plain));  // no bar at all
}

TEST(Chart, LegendRowsGrowTheImage) {
  std::vector<Series> few{{"a", {1}, {}}}, many;
  for (int i = 0; i < 12; ++i)
    many.push_back({"a rather long series name " + std::to_string(i), {1}, {}});
  EXPECT_GT(bar_chart(kLabels, {"Avg"}, many).height, bar_chart(kLabels, {"Avg"}, few).height);
}

TEST(Chart, LineChartDrawsEverySeries) {
  const ChartLabels labels{.title = "curves", .x_label = "epoch", .y_label = "loss"};
  const Series train{"train", {2.1, 1.7, 1.2, NAN, 0.9}, {}}, val{"val", {2.2, 1.9}, {}};
  const GrayImage one = line_chart(labels, {train}), two = line_chart(labels, {train, val});
  EXPECT_EQ(one.width, 1000);
  EXPECT_NE(one.pixels, two.pixels);
}

}  // namespace
}  // namespace rave::engine
