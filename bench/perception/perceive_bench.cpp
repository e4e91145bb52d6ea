// Solving from pixels: end to end from the bytes of an npz (the decoding of the npz included) to
// the solver's answer, perception alone, and building the lookup tables of a configuration.
// Problems are made by rave's generator (seed 2024, 100 per configuration, RAVEN answer sets) and
// encoded in memory as numpy.savez wrote the original RAVEN-10000 files (uncompressed) or, for the
// compressed case, as numpy.savez_compressed (RAVEN-FAIR's layout). The tables are built before
// the timed loops (they are built once per process); their size is reported as a counter.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "engine/formats/npz.hpp"
#include "engine/generate.hpp"
#include "engine/render/render.hpp"
#include "jobs/from_pixels.hpp"
#include "perception/perceive.hpp"
#include "perception/slot_table.hpp"

namespace {

using rave::engine::ConfigId;
namespace perception = rave::perception;
namespace solver = rave::solver;
namespace jobs = rave::jobs;

constexpr int kPerConfig = 100;

// config < 0: all seven configurations, interleaved.
const std::vector<std::string>& npz_bytes(int config, bool compressed) {
  static std::vector<std::vector<std::string>> sets[2];
  auto& by_config = sets[compressed];
  if (by_config.empty()) {
    by_config.resize(rave::engine::kNumConfigs + 1);
    for (int k = 0; k < kPerConfig; ++k)
      for (int c = 0; c < rave::engine::kNumConfigs; ++c) {
        const auto p = rave::engine::generate_problem(static_cast<ConfigId>(c),
                                                      rave::engine::AnswerStrategy::kRaven, 2024,
                                                      static_cast<std::uint64_t>(k));
        const auto images = rave::engine::render_problem(p);
        std::string bytes = rave::engine::encode_problem_npz(p, images, compressed);
        by_config[c].push_back(bytes);
        by_config.back().push_back(std::move(bytes));
      }
    for (int c = 0; c < rave::engine::kNumConfigs; ++c)
      perception::config_tables(static_cast<ConfigId>(c));
  }
  return by_config[config < 0 ? rave::engine::kNumConfigs : config];
}

std::string label(int config) {
  return config < 0
             ? "mix of 7"
             : std::string(rave::engine::configuration(static_cast<ConfigId>(config)).paper_name);
}

void from_npz(benchmark::State& state, bool compressed) {
  const int config = static_cast<int>(state.range(0));
  const auto& set = npz_bytes(config, compressed);
  solver::Solver s(solver::Backend::kHeuristic, solver::readings_options());
  std::size_t i = 0;
  for (auto _ : state) {
    const auto file = rave::engine::parse_npz(set[i], "bench.npz", {"image"});
    benchmark::DoNotOptimize(jobs::solve_perceived(s, perception::perceive(file.image())));
    if (++i == set.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["table_MB"] = static_cast<double>(perception::table_bytes()) / 1e6;
  state.SetLabel(label(config));
}

void BM_Perception_FromNpzBytes(benchmark::State& state) { from_npz(state, false); }
BENCHMARK(BM_Perception_FromNpzBytes)->DenseRange(-1, 6);

void BM_Perception_FromCompressedNpzBytes(benchmark::State& state) { from_npz(state, true); }
BENCHMARK(BM_Perception_FromCompressedNpzBytes)->Arg(-1);

// Perception alone, on images already decoded.
void BM_Perception_Perceive(benchmark::State& state) {
  const int config = static_cast<int>(state.range(0));
  std::vector<std::vector<std::uint8_t>> images;
  for (const std::string& bytes : npz_bytes(config, false)) {
    const auto file = rave::engine::parse_npz(bytes, "bench.npz", {"image"});
    images.emplace_back(file.image().begin(), file.image().end());
  }
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(perception::perceive(images[i]));
    if (++i == images.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(label(config));
}
BENCHMARK(BM_Perception_Perceive)->Arg(-1)->Arg(2)->Arg(6);

// Building one configuration's tables from scratch (what the first problem of it pays).
void BM_Perception_BuildTables(benchmark::State& state) {
  const auto config = static_cast<ConfigId>(state.range(0));
  std::size_t bytes = 0;
  for (auto _ : state) {
    const perception::ConfigTables tables(config);
    bytes = tables.bytes();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["table_MB"] = static_cast<double>(bytes) / 1e6;
  state.SetLabel(label(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_Perception_BuildTables)
    ->DenseRange(0, 6)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace
