// Raw throughput of the engine's random stream (every sampled level goes through it).
#include <benchmark/benchmark.h>

#include "common/random.hpp"

namespace {

void BM_Rng_Below(benchmark::State& state) {
  rave::Rng rng(1234);
  for (auto _ : state) benchmark::DoNotOptimize(rng.below(10));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Rng_Below);

}  // namespace
