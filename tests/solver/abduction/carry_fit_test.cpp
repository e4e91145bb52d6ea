// Distribute_Three Position's carry without entity order (solver/fits.hpp MoveFit): against a
// brute-force oracle that tries every position array of the three slot sets (the generator's
// hidden state, docs/rules.md) on small random problems of Distribute_Four, both whether the
// context and a 9th panel fit and the probability of the 9th panel (moves equally likely).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/random.hpp"
#include "solver/abduction/fits.hpp"

namespace rave::solver {
namespace {

constexpr int kSlots = 4;

// Nine panels: the slot set of each and one attribute's level on each slot (-1 where empty).
struct Case {
  std::array<std::uint16_t, 9> masks{};
  std::array<std::array<int, kSlots>, 9> levels{};
};

std::vector<int> slots_of(std::uint16_t mask) {
  std::vector<int> out;
  for (int s = 0; s < kSlots; ++s)
    if ((mask >> s) & 1u) out.push_back(s);
  return out;
}

// How many position arrays of the three sets (set 0's fixed) explain the panels, the 9th
// included or not: entity j sits on entry j of its set's array in every panel of a row.
long count_moves(const Case& c, bool with_ninth) {
  const std::vector<int> set0 = slots_of(c.masks[0]);
  std::vector<int> set1 = slots_of(c.masks[1]), set2 = slots_of(c.masks[2]);
  std::sort(set1.begin(), set1.end());
  long count = 0;
  do {
    std::sort(set2.begin(), set2.end());
    do {
      const std::array<const std::vector<int>*, 3> arrays{&set0, &set1, &set2};
      bool ok = true;
      for (int r = 0; r < 3 && ok; ++r)
        for (std::size_t j = 0; j < set0.size() && ok; ++j) {
          int level = -2;
          for (int col = 0; col < 3 && ok; ++col) {
            const int i = 3 * r + col;
            if (i == 8 && !with_ninth) continue;
            int x = 0;
            while (c.masks[x] != c.masks[i]) ++x;
            const int here = c.levels[i][(*arrays[x])[j]];
            ok = level == -2 || here == level;
            level = here;
          }
        }
      count += ok;
    } while (std::next_permutation(set2.begin(), set2.end()));
  } while (std::next_permutation(set1.begin(), set1.end()));
  return count;
}

// A random case: three distinct sets of `k` slots in Latin rows, levels in {0, 1, 2}, made by the
// generator's moves from random arrays, then in half the cases each level redrawn with chance 1/20.
Case random_case(Rng& rng, int k) {
  Case c;
  std::vector<std::uint16_t> sets;
  while (sets.size() < 3) {
    std::uint16_t m = 0;
    for (int s : rng.sample(kSlots, k)) m = static_cast<std::uint16_t>(m | (1u << s));
    if (std::find(sets.begin(), sets.end(), m) == sets.end()) sets.push_back(m);
  }
  std::array<std::vector<int>, 3> arrays;
  for (int x = 0; x < 3; ++x) {
    arrays[x] = slots_of(sets[x]);
    rng.shuffle(std::span<int>(arrays[x]));
  }
  const bool forward = rng.coin(), perturb = rng.coin();
  for (int r = 0; r < 3; ++r) {
    std::vector<int> entity(static_cast<std::size_t>(k));
    for (int& v : entity) v = rng.below(3);
    for (int col = 0; col < 3; ++col) {
      const int x = (col + (forward ? r : 3 - r)) % 3;
      const int i = 3 * r + col;
      c.masks[i] = sets[x];
      c.levels[i].fill(-1);
      for (int j = 0; j < k; ++j)
        c.levels[i][arrays[x][j]] = perturb && rng.below(20) == 0 ? rng.below(3) : entity[j];
    }
  }
  return c;
}

PanelView view_of(const Case& c, int i) {
  PanelView p;
  p.mask = c.masks[i];
  p.count = std::popcount(c.masks[i]);
  for (int s = 0; s < kSlots; ++s)
    if (c.levels[i][s] >= 0)
      p.by_slot[kSize] |= static_cast<PackedLevels>(c.levels[i][s] + 1) << (4 * s);
  return p;
}

TEST(MoveFit, AgreesWithEveryPositionArrayTried) {
  Rng rng(2024);
  int context_fits = 0, ninth_fits = 0;
  for (int trial = 0; trial < 6000; ++trial) {
    const Case c = random_case(rng, 2 + trial % 2);
    ComponentView view;
    for (int i = 0; i < 8; ++i) view.panels[i] = view_of(c, i);
    MoveFit fit;
    double log_ratio = 0;
    const long context = count_moves(c, false);
    ASSERT_EQ(fit_move(kSize, view, fit, log_ratio), context > 0) << trial;
    if (context == 0) continue;
    ++context_fits;
    const long both = count_moves(c, true);
    ASSERT_EQ(move_accepts(fit, kSize, view_of(c, 8)), both > 0) << trial;
    if (both == 0) continue;
    ++ninth_fits;
    EXPECT_NEAR(log_ratio, std::log(static_cast<double>(both) / context), 1e-12) << trial;
  }
  EXPECT_GT(context_fits, 1000);  // both outcomes exercised
  EXPECT_GT(ninth_fits, 500);
  EXPECT_LT(ninth_fits, context_fits);
}

}  // namespace
}  // namespace rave::solver
