// Value semantics and sampling likelihoods against brute force on small domains.
#include "solver/abduction/semantics.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <set>
#include <vector>

#include "solver/abduction/panel_view.hpp"

namespace rave::solver {
namespace {

using engine::Range;

// The col2 range of an Arithmetic rule is exactly the set of col2 levels >= the original minimum
// that keep col3 inside the original range (docs/rules.md#number-and-position-rules,
// docs/rules.md#type-size-and-color-rules): brute force over every narrowed range the generator can
// produce from an original range.
TEST(Semantics, ArithmeticCol2RangeIsWhatKeepsCol3InRange) {
  struct Case {
    ArithKind kind;
    Range original;
  };
  for (const Case& c : {Case{ArithKind::kSize, {0, 5}}, Case{ArithKind::kSize, {2, 5}},
                        Case{ArithKind::kColor, {0, 9}}, Case{ArithKind::kNumber, {0, 3}},
                        Case{ArithKind::kNumber, {0, 8}}})
    for (int sign : {1, -1}) {
      // Narrowing of docs/rules.md#narrowing (Number and Size: 1-based; Color: raw).
      Range narrowed = c.original;
      if (c.kind == ArithKind::kColor)
        (sign > 0 ? narrowed.max : narrowed.min) =
            sign > 0 ? c.original.max - c.original.min : 2 * c.original.min;
      else
        (sign > 0 ? narrowed.max : narrowed.min) =
            sign > 0 ? c.original.max - c.original.min - 1 : 2 * c.original.min + 1;
      for (int col1 = narrowed.min; col1 <= narrowed.max; ++col1) {
        const Range got = arithmetic_col2_range(c.kind, sign, narrowed, col1);
        std::set<int> expected;
        for (int col2 = c.original.min; col2 <= c.original.max; ++col2)
          if (c.original.contains(arithmetic_apply(c.kind, sign, col1, col2)))
            expected.insert(col2);
        std::set<int> actual;
        for (int col2 = got.min; col2 <= got.max; ++col2) actual.insert(col2);
        EXPECT_EQ(actual, expected)
            << "kind " << static_cast<int>(c.kind) << " sign " << sign << " col1 " << col1;
      }
    }
}

TEST(Semantics, SizeArithmeticIsOneBasedAndColorRaw) {
  EXPECT_EQ(arithmetic_apply(ArithKind::kSize, 1, 1, 3), 5);   // (1+1) + (3+1) = 6 -> level 5
  EXPECT_EQ(arithmetic_apply(ArithKind::kSize, -1, 5, 1), 3);  // (5+1) - (1+1) = 4 -> level 3
  EXPECT_EQ(arithmetic_apply(ArithKind::kColor, 1, 2, 3), 5);
  EXPECT_EQ(arithmetic_apply(ArithKind::kColor, -1, 5, 0), 5);  // white is the identity
  EXPECT_EQ(arithmetic_apply(ArithKind::kNumber, 1, 0, 1), 2);  // 1 + 2 entities = 3 -> level 2
}

int popcount_of(unsigned m) { return std::popcount(m); }

// Acceptance probability of Arithmetic Position's col2 rejection loop, by enumerating every
// (count, slot set) draw.
TEST(Semantics, ArithmeticPositionAcceptanceMatchesEnumeration) {
  for (int n : {4, 9})
    for (int sign : {1, -1})
      for (Range narrowed : {Range{0, n - 2}, Range{1, n - 2}, Range{n / 2, n - 2}})
        for (unsigned col1 = 1; col1 < (1u << n); ++col1) {
          double accepted = 0;
          for (int level = narrowed.min; level <= narrowed.max; ++level) {
            int sets = 0, good = 0;
            for (unsigned col2 = 1; col2 < (1u << n); ++col2) {
              if (popcount_of(col2) != level + 1) continue;
              ++sets;
              const bool ok = sign > 0 ? (col2 & ~col1) != 0 : (col1 & ~col2) != 0;
              good += ok;
            }
            accepted += static_cast<double>(good) / sets / narrowed.size();
          }
          EXPECT_NEAR(arithmetic_position_accept(sign, narrowed, n, popcount_of(col1)), accepted,
                      1e-12);
        }
}

// The guarded row-2 likelihood of Color Arithmetic is a probability distribution over (col1, col2).
TEST(Semantics, GuardedColorRowTwoIsNormalised) {
  for (int sign : {1, -1}) {
    const Range narrowed{0, 9};
    double total = 0;
    for (int col1 = 0; col1 <= 9; ++col1)
      for (int col2 = 0; col2 <= 9; ++col2) {
        const double ll = guarded_color_row2_log_lik(sign, narrowed, col1, col2);
        if (std::isfinite(ll)) total += std::exp(ll);
        if (col2 == 0) {
          EXPECT_FALSE(std::isfinite(ll));
        }
      }
    EXPECT_NEAR(total, 1.0, 1e-12) << sign;
    // The level whose col2 range is {0} is never row 2's col1 (+: 9, -: 0).
    EXPECT_FALSE(std::isfinite(guarded_color_row2_log_lik(sign, narrowed, sign > 0 ? 9 : 0, 0)));
  }
}

TEST(Semantics, ShiftMaskIsCyclicSlotShift) {
  for (int n : {4, 9})
    for (int v : {-2, -1, 1, 2})
      for (unsigned m = 0; m < (1u << n); ++m) {
        unsigned expected = 0;
        for (int s = 0; s < n; ++s)
          if ((m >> s) & 1u) expected |= 1u << (((s + v) % n + n) % n);
        EXPECT_EQ(shift_mask(static_cast<std::uint16_t>(m), v, n), expected);
      }
}

// Latin rows: brute force over all level assignments of a 3-value domain plus one outsider.
TEST(Semantics, LatinRowsAcceptExactlyTheTwoRotations) {
  std::array<int, 8> x{};
  int accepted = 0;
  for (int code = 0; code < 6561; ++code) {  // 3^8: values 0..2 in the 8 context cells
    int c = code;
    for (int i = 0; i < 8; ++i) x[i] = c % 3, c /= 3;
    const bool distinct = x[0] != x[1] && x[0] != x[2] && x[1] != x[2];
    const std::array<int, 3> r1{x[0], x[1], x[2]};
    const std::array<int, 3> rot1{r1[1], r1[2], r1[0]}, rot2{r1[2], r1[0], r1[1]};
    const std::array<int, 3> r2{x[3], x[4], x[5]};
    bool expected = false;
    int third_expected = -1;
    for (const auto& [second, third] : {std::pair{rot1, rot2}, std::pair{rot2, rot1}})
      if (distinct && r2 == second && x[6] == third[0] && x[7] == third[1])
        expected = true, third_expected = third[2];
    int third = -1;
    EXPECT_EQ(latin_rows(x, third), expected);
    if (expected) {
      EXPECT_EQ(third, third_expected);
    }
    accepted += expected;
  }
  EXPECT_EQ(accepted, 12);  // 6 row-1 permutations x 2 orders
}

}  // namespace
}  // namespace rave::solver
