#pragma once
// The few draws of numpy's legacy global stream (`np.random.seed(s)`, then `np.random.uniform` and
// `np.random.permutation`) that IBM's I-RAVEN-X prompt code makes for its uncertain values
// (text_prompt.hpp), reproduced bit for bit: MT19937 seeded by init_genrand (numpy's seeding of a
// 32-bit integer), doubles from two 32-bit outputs (a >> 5, b >> 6) as numpy's
// `random_standard_uniform`, and the Fisher-Yates step of `shuffle` drawing a masked 32-bit output.
//
//   NumpyLegacyRandom r(1234);            // np.random.seed(1234)
//   double p = r.uniform(0.7, 1.0);       // np.random.uniform(low=0.7, high=1.0)
//   bool swap = r.permutation2_swaps();   // np.random.permutation(two values) swaps them
#include <cstdint>
#include <random>

namespace rave::evaluation {

class NumpyLegacyRandom {
 public:
  explicit NumpyLegacyRandom(std::uint32_t seed) : mt_(seed) {}
  /// numpy's `random_sample()`: 53 random bits in [0, 1).
  double sample() {
    const std::uint32_t a = static_cast<std::uint32_t>(mt_()) >> 5;
    const std::uint32_t b = static_cast<std::uint32_t>(mt_()) >> 6;
    return (a * 67108864.0 + b) / 9007199254740992.0;
  }
  /// `uniform(low, high)`: low + (high - low) * sample().
  double uniform(double low, double high) { return low + (high - low) * sample(); }
  /// `permutation` of a two-element array: its one step j = random_interval(1); the elements swap
  /// when j is 0.
  bool permutation2_swaps() { return (static_cast<std::uint32_t>(mt_()) & 1U) == 0; }

 private:
  std::mt19937 mt_;
};

}  // namespace rave::evaluation
