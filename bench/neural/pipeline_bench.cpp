// Data-pipeline throughput in problems/s (read npz, check, resize 16 panels with Pillow's bilinear
// filter, parse the structure sentence, pack batches of 32) over a generated dataset, by worker
// count; compare with what a model consumes (32 / step time, train_step_bench.cpp): the target is
// at least 10x, so the pipeline is never the bottleneck. Also epochs served from the
// decoded-problem cache, one problem, and the single-panel resize. Built only with the neural
// library (bench/CMakeLists.txt defines RAVE_HAVE_NEURAL).
#ifdef RAVE_HAVE_NEURAL
#include <benchmark/benchmark.h>

#include <filesystem>

#include "jobs/dataset.hpp"
#include "neural/dataset.hpp"
#include "neural/pipeline.hpp"

namespace {

using namespace rave;

// 210 generated problems (30 per configuration, all in the train split), made once.
const std::vector<neural::DataFile>& bench_files() {
  static const std::vector<neural::DataFile> files = [] {
    const auto dir = std::filesystem::temp_directory_path() / "rave-bench-pipeline";
    jobs::DatasetSpec spec{.dir = dir,
                           .configs = {},
                           .num_samples = 30,
                           .seed = 7,
                           .val = 0,
                           .test = 0,
                           .resume = true,
                           .threads = 2};
    jobs::prepare_dataset_dir(spec);
    jobs::write_dataset(spec);
    return neural::list_split(dir, engine::Split::kTrain, {});
  }();
  return files;
}

void BM_Pipeline_Epoch(benchmark::State& state) {
  const auto& files = bench_files();
  const neural::PipelineOptions options{.image_size = static_cast<int>(state.range(1)),
                                        .batch_size = 32,
                                        .threads = static_cast<int>(state.range(0)),
                                        .shuffle = true};
  int epoch = 0;
  for (auto _ : state) {
    neural::BatchStream stream(files, options, epoch++);
    while (auto batch = stream.next()) benchmark::DoNotOptimize(batch->images.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(files.size()));
  state.SetLabel(std::to_string(state.range(1)) + "px, " + std::to_string(state.range(0)) +
                 " workers");
}
BENCHMARK(BM_Pipeline_Epoch)
    ->Args({1, 80})
    ->Args({2, 80})
    ->Args({1, 224})
    ->Args({2, 224})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// Epochs after the first, when the decoded problems fit the trainer's cache (--cache-mb).
void BM_Pipeline_CachedEpoch(benchmark::State& state) {
  const auto& files = bench_files();
  const neural::PipelineOptions options{.image_size = 80,
                                        .batch_size = 32,
                                        .threads = static_cast<int>(state.range(0)),
                                        .shuffle = true,
                                        .shuffle_candidates = true};
  neural::ProblemCache cache(files.size(), options, std::size_t{1} << 30);
  int epoch = 0;
  for (neural::BatchStream fill(files, options, epoch++, &cache); fill.next();) {
  }
  for (auto _ : state) {
    neural::BatchStream stream(files, options, epoch++, &cache);
    while (auto batch = stream.next()) benchmark::DoNotOptimize(batch->images.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(files.size()));
}
BENCHMARK(BM_Pipeline_CachedEpoch)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Pipeline_LoadProblem(benchmark::State& state) {
  const auto& files = bench_files();
  const neural::PanelResizer resize(160, static_cast<int>(state.range(0)));
  std::size_t i = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(neural::load_problem(files[i++ % files.size()], resize));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Pipeline_LoadProblem)->Arg(80)->Arg(224);

void BM_Pipeline_ResizePanel(benchmark::State& state) {
  std::vector<std::uint8_t> in(160 * 160),
      out(static_cast<std::size_t>(state.range(0) * state.range(0)));
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 24);
  const neural::PanelResizer resize(160, static_cast<int>(state.range(0)));
  for (auto _ : state) {
    resize(in.data(), out.data());
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Pipeline_ResizePanel)->Arg(80)->Arg(224);

}  // namespace

#endif  // RAVE_HAVE_NEURAL
