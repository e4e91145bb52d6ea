#include "common/random.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace rave::engine {
namespace {

TEST(Rng, ProblemStreamsAreReproducibleAndDistinct) {
  Rng a = Rng::for_problem(1234, 2, 17);
  Rng b = Rng::for_problem(1234, 2, 17);
  Rng c = Rng::for_problem(1234, 2, 18);
  Rng d = Rng::for_problem(1234, 3, 17);
  const auto x = a.next();
  EXPECT_EQ(x, b.next());
  EXPECT_NE(x, c.next());
  EXPECT_NE(x, d.next());
}

TEST(Rng, BelowIsUniformOnSmallRanges) {
  Rng rng(7);
  std::array<int, 6> counts{};
  const int n = 60000;
  for (int i = 0; i < n; ++i) ++counts[static_cast<std::size_t>(rng.below(6))];
  for (int c : counts) EXPECT_NEAR(c, n / 6, 5 * std::sqrt(n / 6.0));  // 5 sigma
}

TEST(Rng, SampleGivesDistinctValuesInRange) {
  Rng rng(9);
  for (int trial = 0; trial < 200; ++trial) {
    auto s = rng.sample(9, 5);
    std::set<int> unique(s.begin(), s.end());
    EXPECT_EQ(unique.size(), 5u);
    EXPECT_TRUE(std::all_of(s.begin(), s.end(), [](int v) { return 0 <= v && v < 9; }));
  }
}

}  // namespace
}  // namespace rave::engine
