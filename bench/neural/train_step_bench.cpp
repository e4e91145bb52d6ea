// Training-step time at batch 32 (zero_grad, forward, loss, backward, Adam step) on random tensors,
// the method of the PyTorch reference figures in
// bench/README.md#neural-training-steps-and-the-data-pipeline (same models, same batch, same
// losses: CE, ResNet with both BCE meta terms, WReN with beta 10). The argument is the thread count
// given to torch. Medians of 10 single-step repetitions after 2 warm-up steps. Built
// only with the neural library (bench/CMakeLists.txt defines RAVE_HAVE_NEURAL).
#ifdef RAVE_HAVE_NEURAL
#include <benchmark/benchmark.h>
#include <torch/utils.h>

#include <map>
#include <memory>
#include <string>

#include "bench/neural/step_inputs.hpp"
#include "neural/epoch_loop.hpp"
#include "neural/train_step.hpp"

namespace {

using namespace rave::neural;

constexpr std::int64_t kBatch = 32;

// One model with its optimiser and a fixed random batch, built (and warmed up) once per case.
struct StepCase {
  std::shared_ptr<RavenModelImpl> model;
  std::unique_ptr<FusedAdam> adam;
  BatchTensors batch;
  LossWeights weights;
};

StepCase& step_case(const ModelOptions& options, int threads) {
  static std::map<std::string, StepCase> cases;
  const std::string key = display_name(options) + "/" + std::to_string(threads);
  auto it = cases.find(key);
  if (it != cases.end()) return it->second;
  torch::manual_seed(1);
  StepCase c;
  c.model = make_model(options);
  c.adam = std::make_unique<FusedAdam>(make_adam(*c.model, {}));
  c.batch = random_step_batch(kBatch, resolved_image_size(options), torch::kCPU);
  c.weights = step_loss_weights(options.kind);
  for (int i = 0; i < 2; ++i) train_step(*c.model, *c.adam, c.batch, c.weights);
  return cases.emplace(key, std::move(c)).first->second;
}

void train_steps(benchmark::State& state, const ModelOptions& options) {
  const int threads = static_cast<int>(state.range(0));
  set_compute_threads(threads);
  StepCase& c = step_case(options, threads);
  for (auto _ : state) benchmark::DoNotOptimize(train_step(*c.model, *c.adam, c.batch, c.weights));
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.SetLabel(display_name(options) + " " + std::to_string(resolved_image_size(options)) + "px");
}

void BM_TrainStep_CnnMlp(benchmark::State& s) { train_steps(s, {.kind = ModelKind::kCnn}); }
void BM_TrainStep_CnnMlpDrt(benchmark::State& s) {
  train_steps(s, {.kind = ModelKind::kCnn, .drt = true});
}
void BM_TrainStep_ResNet18MlpDrt(benchmark::State& s) {
  train_steps(s, {.kind = ModelKind::kResNet, .drt = true});
}
void BM_TrainStep_ResNet18MlpDrt80(benchmark::State& s) {
  train_steps(s, {.kind = ModelKind::kResNet, .drt = true, .image_size = 80});
}
void BM_TrainStep_CnnLstmDrt(benchmark::State& s) {
  train_steps(s, {.kind = ModelKind::kLstm, .drt = true});
}
void BM_TrainStep_WReN(benchmark::State& s) { train_steps(s, {.kind = ModelKind::kWReN}); }
void BM_TrainStep_Scl(benchmark::State& s) { train_steps(s, {.kind = ModelKind::kScl}); }

#define RAVE_STEP_BENCH(fn)                                         \
  BENCHMARK(fn)                                                     \
      ->Arg(1)                                                      \
      ->Arg(2)                                                      \
      ->Iterations(1)                                               \
      ->Repetitions(10)                                             \
      ->ReportAggregatesOnly(true)                                  \
      ->UseRealTime()                                               \
      ->Unit(benchmark::kMillisecond)                               \
      ->ComputeStatistics("min", [](const std::vector<double>& v) { \
        return *std::min_element(v.begin(), v.end());               \
      })
RAVE_STEP_BENCH(BM_TrainStep_CnnMlp);
RAVE_STEP_BENCH(BM_TrainStep_CnnMlpDrt);
RAVE_STEP_BENCH(BM_TrainStep_ResNet18MlpDrt);
RAVE_STEP_BENCH(BM_TrainStep_ResNet18MlpDrt80);
RAVE_STEP_BENCH(BM_TrainStep_CnnLstmDrt);
RAVE_STEP_BENCH(BM_TrainStep_WReN);
RAVE_STEP_BENCH(BM_TrainStep_Scl);

}  // namespace

#endif  // RAVE_HAVE_NEURAL
