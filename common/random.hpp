#pragma once
// The engine's random stream: xoshiro256** seeded through splitmix64, with every distribution
// mapped from raw 64-bit output by our own code (the standard library does not pin down its
// distributions), so a seed gives the same problems on every platform and thread count.
// Problem k of configuration c draws from Rng::for_problem(seed, c, k) and from nothing else.
//
//   Rng rng = Rng::for_problem(/*seed=*/1234, /*config=*/2, /*k=*/17);
//   int level = rng.uniform_int(0, 5);            // inclusive bounds
//   auto slots = rng.sample(9, 4);                // 4 distinct values of 0..8, in draw order
#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "common/error.hpp"

namespace rave {

class Rng {
 public:
  /// A stream seeded from one 64-bit value (splitmix64 expansion).
  explicit Rng(std::uint64_t seed);
  /// The independent stream of problem `k` of configuration `config` under `seed`; `attempt` > 0
  /// gives further independent streams for the same problem (a redraw), attempt 0 the first.
  static Rng for_problem(std::uint64_t seed, int config, std::uint64_t k,
                         std::uint64_t attempt = 0);

  /// Raw 64 random bits.
  std::uint64_t next();
  /// Uniform integer in [0, n), n > 0; unbiased (Lemire's multiply-and-reject).
  int below(int n);
  /// Uniform integer in [lo, hi], lo <= hi.
  int uniform_int(int lo, int hi) { return lo + below(hi - lo + 1); }
  /// Fair coin.
  bool coin() { return (next() >> 63) != 0; }
  /// Uniform double in [0, 1) with 53 random bits.
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// `k` distinct values of [0, n) in the order they were drawn (partial Fisher-Yates).
  std::vector<int> sample(int n, int k);
  /// Fisher-Yates shuffle in place.
  template <class T>
  void shuffle(std::span<T> items) {
    for (std::size_t i = items.size(); i > 1; --i)
      std::swap(items[i - 1], items[static_cast<std::size_t>(below(static_cast<int>(i)))]);
  }
  /// A uniformly chosen element of a non-empty range.
  template <class T>
  const T& choice(std::span<const T> items) {
    RAVE_CHECK(!items.empty(), "choice from an empty range");
    return items[static_cast<std::size_t>(below(static_cast<int>(items.size())))];
  }

 private:
  std::array<std::uint64_t, 4> state_{};
};

/// splitmix64 finaliser: a good 64-bit mix, used to combine seeds.
std::uint64_t mix64(std::uint64_t x);

}  // namespace rave
