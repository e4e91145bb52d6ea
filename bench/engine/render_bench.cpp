// Renderer throughput (docs/rendering.md). BM_Render_Panel: panels per second per configuration
// with warm entity templates (the steady state of a generator run); BM_Render_Problem: the 16
// panels of a problem; BM_Render_TemplateBuild: the one-off cost of an entity's first use (OpenCV
// drawing + fixed-point warp weights + mask). The original renders 16 panels in 2.5-11 ms per
// problem (bench/README.md#the-originals-figures: 0.25-1.10 CPU s per 100 problems).
#include <benchmark/benchmark.h>

#include <string>

#include "bench/engine/sample_problems.hpp"
#include "engine/render/internal/entity_template.hpp"
#include "engine/render/render.hpp"

namespace {

using rave::engine::ConfigId;

void BM_Render_Panel(benchmark::State& state, ConfigId id) {
  const auto problems = rave::bench::bench_problems(id, 32);
  for (const auto& p : problems)
    benchmark::DoNotOptimize(rave::engine::render_problem(p));  // warm templates
  std::size_t i = 0;
  for (auto _ : state) {
    const auto& p = problems[(i / 16) % problems.size()];
    benchmark::DoNotOptimize(rave::engine::render_panel(id, p.panel(static_cast<int>(i % 16))));
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Render_Problem(benchmark::State& state, ConfigId id) {
  const auto problems = rave::bench::bench_problems(id, 32);
  for (const auto& p : problems) benchmark::DoNotOptimize(rave::engine::render_problem(p));
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(rave::engine::render_problem(problems[i++ % problems.size()]));
  state.SetItemsProcessed(state.iterations());
}

void BM_Render_TemplateBuild(benchmark::State& state) {
  const auto& slots =
      rave::engine::configuration(ConfigId::kDistributeFour).components[0].layout.slots;
  int i = 0;
  for (auto _ : state) {
    const rave::engine::Entity e{.slot = i % 4,
                                 .type = 1 + (i / 4) % 5,
                                 .size = (i / 20) % 6,
                                 .color = 0,
                                 .angle = (i / 120) % 8};
    benchmark::DoNotOptimize(
        rave::engine::internal::build_entity_template(slots[static_cast<std::size_t>(e.slot)], e));
    ++i;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Render_TemplateBuild);

const bool kRegistered = [] {
  for (const auto& config : rave::engine::all_configurations()) {
    const std::string folder(config.folder);
    benchmark::RegisterBenchmark(("BM_Render_Panel/" + folder).c_str(), BM_Render_Panel, config.id);
    benchmark::RegisterBenchmark(("BM_Render_Problem/" + folder).c_str(), BM_Render_Problem,
                                 config.id);
  }
  return true;
}();

}  // namespace
