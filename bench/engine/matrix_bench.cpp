// Throughput of the matrix sampler per configuration (docs/rules.md): rules with pruning alone
// (BM_Rules_Sample) and the whole matrix, rules + first panel + three rows (BM_Matrix_Sample). The
// original spends, per 100 problems, 0.13-5.33 CPU s on rules+prune and 0.42-2.61 s on rows
// (bench/README.md#the-originals-figures); items/s here are matrices (or accepted rule draws) per
// second on one thread.
#include <benchmark/benchmark.h>

#include <string>

#include "engine/rules/matrix.hpp"

namespace {

using rave::engine::ConfigId;

void BM_Matrix_Sample(benchmark::State& state, ConfigId id) {
  rave::Rng rng(1234);
  for (auto _ : state) {
    rave::engine::Matrix m = rave::engine::sample_matrix(id, rng);
    benchmark::DoNotOptimize(m);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Rules_Sample(benchmark::State& state, ConfigId id) {
  const rave::engine::Configuration& config = rave::engine::configuration(id);
  rave::Rng rng(1234);
  std::vector<rave::engine::LayoutConstraints> narrowed;
  std::int64_t tries_total = 0;
  for (auto _ : state) {
    int tries = 0;
    auto rules = rave::engine::sample_rules(config, rng, narrowed, tries);
    benchmark::DoNotOptimize(rules);
    tries_total += tries;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["tries"] = benchmark::Counter(static_cast<double>(tries_total) /
                                               static_cast<double>(state.iterations()));
}

// Rule sampling alone at matrix side N = range(1) for configuration range(0) (docs/variants.md):
// the rule groups with pruning, as generate_problem draws them; "tries" counts the draws per
// accepted group. N = 3 is the original's table.
void BM_Rules_Grid(benchmark::State& state) {
  const auto id = static_cast<ConfigId>(state.range(0));
  const rave::engine::MatrixModel model = rave::engine::matrix_model(
      id, rave::engine::Variant{.grid = static_cast<int>(state.range(1))});
  rave::Rng rng(1234);
  std::vector<rave::engine::LayoutConstraints> narrowed;
  std::int64_t tries_total = 0;
  for (auto _ : state) {
    int tries = 0;
    auto rules = rave::engine::sample_rules(model, rng, narrowed, tries);
    benchmark::DoNotOptimize(rules);
    tries_total += tries;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["tries"] = benchmark::Counter(static_cast<double>(tries_total) /
                                               static_cast<double>(state.iterations()));
  state.SetLabel(std::string(rave::engine::configuration(id).paper_name));
}
BENCHMARK(BM_Rules_Grid)->ArgsProduct({{0, 1, 2, 3, 4, 5, 6}, {3, 5, 10}});

// One case per configuration, named by folder: BM_Matrix_Sample/center_single, ...
const bool kRegistered = [] {
  for (const auto& config : rave::engine::all_configurations()) {
    const std::string folder(config.folder);
    benchmark::RegisterBenchmark(("BM_Matrix_Sample/" + folder).c_str(), BM_Matrix_Sample,
                                 config.id);
    benchmark::RegisterBenchmark(("BM_Rules_Sample/" + folder).c_str(), BM_Rules_Sample, config.id);
  }
  return true;
}();

}  // namespace
