// End-to-end generation throughput per configuration: sample the matrix, build the answer set,
// render 16 panels (Render stops there), encode the npz and the XML (with masks), and (WriteFiles)
// write both files. Compare with the original's 10-50 problems/s per core
// (bench/README.md#the-originals-figures) in bench/README.md.
#include <benchmark/benchmark.h>

#include <filesystem>

#include "engine/generate.hpp"
#include "engine/render/render.hpp"
#include "jobs/dataset.hpp"

namespace {

using rave::engine::AnswerStrategy;
using rave::engine::ConfigId;

void BM_Generate_Problem(benchmark::State& state) {
  const auto config = static_cast<ConfigId>(state.range(0));
  std::uint64_t k = 0;
  for (auto _ : state) {
    auto problem = rave::engine::generate_problem(config, AnswerStrategy::kRaven, 1234, k++);
    benchmark::DoNotOptimize(problem);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(std::string(rave::engine::configuration(config).paper_name));
}
BENCHMARK(BM_Generate_Problem)->DenseRange(0, 6);

// What rave.generate_batch computes per problem at 160x160 (bench/python/bench_python.py compares
// the two): the problem and its 16 panels in memory, no file encodings.
void BM_Generate_Render(benchmark::State& state) {
  const auto config = static_cast<ConfigId>(state.range(0));
  std::uint64_t k = 0;
  for (auto _ : state) {
    const auto problem = rave::engine::generate_problem(config, AnswerStrategy::kRaven, 1234, k++);
    auto images = rave::engine::render_problem(problem);
    benchmark::DoNotOptimize(images);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(std::string(rave::engine::configuration(config).paper_name));
}
BENCHMARK(BM_Generate_Render)->DenseRange(0, 6);

void BM_Generate_Files(benchmark::State& state) {
  const auto config = static_cast<ConfigId>(state.range(0));
  std::uint64_t k = 0, bytes = 0;
  for (auto _ : state) {
    auto files = rave::engine::encode_problem_files(
        rave::engine::generate_problem(config, AnswerStrategy::kRaven, 1234, k++));
    bytes += files.npz.size() + files.xml.size();
    benchmark::DoNotOptimize(files);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
  state.SetLabel(std::string(rave::engine::configuration(config).paper_name));
}
BENCHMARK(BM_Generate_Files)->DenseRange(0, 6);

void BM_Generate_WriteFiles(benchmark::State& state) {
  const auto config = static_cast<ConfigId>(state.range(0));
  const auto dir = std::filesystem::temp_directory_path() / "rave-bench-generate";
  std::filesystem::create_directories(dir);
  std::uint64_t k = 0;
  for (auto _ : state) {
    const auto problem = rave::engine::generate_problem(config, AnswerStrategy::kRaven, 1234, k);
    rave::engine::write_problem_files(dir, "RAVEN_" + std::to_string(k++ % 64) + "_train",
                                      rave::engine::encode_problem_files(problem));
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(std::string(rave::engine::configuration(config).paper_name));
  std::filesystem::remove_all(dir);
}
BENCHMARK(BM_Generate_WriteFiles)->DenseRange(0, 6);

// A variant's symbolic problem (docs/variants.md) at matrix side N = range(1), answers range(2)
// (0 raven, 1 iraven, 3 balanced): compare N = 5 and 10 against 3 per problem and per panel
// (N*N+7 panels), and the exchangeable sets (balanced; iraven above 3x3) against the others.
void BM_Generate_Grid(benchmark::State& state) {
  const auto config = static_cast<ConfigId>(state.range(0));
  const rave::engine::Variant variant{.grid = static_cast<int>(state.range(1))};
  const auto strategy = static_cast<AnswerStrategy>(state.range(2));
  std::uint64_t k = 0;
  for (auto _ : state) {
    auto problem = rave::engine::generate_problem(config, strategy, 1234, k++, variant,
                                                  rave::engine::Split::kTrain);
    benchmark::DoNotOptimize(problem);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["panels"] = rave::engine::panel_count(variant.grid);
  state.SetLabel(std::string(rave::engine::configuration(config).paper_name) + " " +
                 std::string(rave::engine::strategy_name(strategy)));
}
BENCHMARK(BM_Generate_Grid)->ArgsProduct({{0, 1, 2, 3, 4, 5, 6}, {3, 5, 10}, {0, 1, 3}});

}  // namespace
