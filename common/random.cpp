#include "common/random.hpp"

#include <numeric>

namespace rave {
namespace {

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

__extension__ using Uint128 = unsigned __int128;

}  // namespace

std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

Rng::Rng(std::uint64_t seed) {
  for (auto& word : state_) {
    seed += 0x9e3779b97f4a7c15ULL;
    word = mix64(seed);
  }
}

Rng Rng::for_problem(std::uint64_t seed, int config, std::uint64_t k, std::uint64_t attempt) {
  std::uint64_t h = mix64(seed);
  h = mix64(h ^ (0x5bd1e995ULL + static_cast<std::uint64_t>(config)));
  h = mix64(h ^ k);
  if (attempt > 0)
    h = mix64(h ^ (0xa7e3f1c2d4b59687ULL + attempt));  // attempt 0: the stream as ever
  return Rng(h);
}

std::uint64_t Rng::next() {
  const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
  const std::uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotl(state_[3], 45);
  return result;
}

int Rng::below(int n) {
  RAVE_CHECK(n > 0, "Rng::below needs a positive bound");
  const auto bound = static_cast<std::uint64_t>(n);
  // Lemire: the high 64 bits of a 128-bit product are uniform after rejecting the short tail.
  Uint128 product = static_cast<Uint128>(next()) * bound;
  auto low = static_cast<std::uint64_t>(product);
  if (low < bound) {
    const std::uint64_t threshold = (0 - bound) % bound;
    while (low < threshold) {
      product = static_cast<Uint128>(next()) * bound;
      low = static_cast<std::uint64_t>(product);
    }
  }
  return static_cast<int>(product >> 64);
}

std::vector<int> Rng::sample(int n, int k) {
  RAVE_CHECK(0 <= k && k <= n, "Rng::sample needs 0 <= k <= n");
  std::vector<int> pool(static_cast<std::size_t>(n));
  std::iota(pool.begin(), pool.end(), 0);
  for (int i = 0; i < k; ++i) {
    const int j = i + below(n - i);
    std::swap(pool[static_cast<std::size_t>(i)], pool[static_cast<std::size_t>(j)]);
  }
  pool.resize(static_cast<std::size_t>(k));
  return pool;
}

}  // namespace rave
