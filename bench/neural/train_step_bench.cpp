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
#include <vector>

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

StepCase make_step_case(const ModelOptions& options, const AdamSettings& adam) {
  StepCase c;
  c.model = make_model(options);
  c.adam = std::make_unique<FusedAdam>(make_adam(*c.model, adam));
  c.batch = random_step_batch(kBatch, resolved_image_size(options), torch::kCPU);
  c.weights = step_loss_weights(options.kind);
  return c;
}

StepCase& step_case(const ModelOptions& options, int threads) {
  static std::map<std::string, StepCase> cases;
  const std::string key = display_name(options) + "/" + std::to_string(threads);
  auto it = cases.find(key);
  if (it != cases.end()) return it->second;
  torch::manual_seed(1);
  StepCase c = make_step_case(options, {});
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

// The CNN+DRT step with 7 % of the tree's weights subnormal (1e-41 to 1e-39), the share weight
// decay 1e-4 had left after 6 epochs of the ablation run (125,881 of 1.76 M), restored before
// every step (Adam with that decay, as the run). The argument is 0 for subnormals kept (the
// default) and 1 for `rave train --flush-denormals`. One thread: the mode is the calling thread's,
// and the pool's threads (started by the cases above with subnormals kept) take no part.
struct SubnormalCase {
  StepCase step;
  std::vector<torch::Tensor> weights;  // with the subnormal ones, copied back before every step
};

SubnormalCase& subnormal_case() {
  static SubnormalCase c = [] {
    torch::manual_seed(2);
    SubnormalCase made;
    made.step = make_step_case({.kind = ModelKind::kCnn, .drt = true}, {.weight_decay = 1e-4});
    torch::NoGradGuard no_grad;
    for (auto& p : made.step.model->named_parameters()) {
      auto w = p.value();
      if (p.key().rfind("tree.", 0) == 0) {
        const auto tiny = torch::sign(w) * torch::empty_like(w).uniform_(1e-41, 1e-39);
        w.copy_(torch::where(torch::rand_like(w) < 0.07, tiny, w));
      }
      made.weights.push_back(w.clone());
    }
    return made;
  }();
  return c;
}

void BM_TrainStep_CnnMlpDrtSubnormal(benchmark::State& state) {
  const bool flush = state.range(0) != 0;
  set_compute_threads(1);
  SubnormalCase& c = subnormal_case();
  set_flush_denormals(flush);
  auto params = c.step.model->parameters();
  for (auto _ : state) {
    state.PauseTiming();
    {
      torch::NoGradGuard no_grad;
      for (std::size_t i = 0; i < params.size(); ++i) params[i].copy_(c.weights[i]);
    }
    state.ResumeTiming();
    benchmark::DoNotOptimize(train_step(*c.step.model, *c.step.adam, c.step.batch, c.step.weights));
  }
  set_flush_denormals(false);
  state.SetItemsProcessed(state.iterations() * kBatch);
  state.SetLabel(std::string("7 % of the tree's weights subnormal, ") +
                 (flush ? "flushed" : "kept"));
}

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
BENCHMARK(BM_TrainStep_CnnMlpDrtSubnormal)
    ->ArgName("flush")
    ->Arg(0)
    ->Arg(1)
    ->Iterations(1)
    ->Repetitions(10)
    ->ReportAggregatesOnly(true)
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

#endif  // RAVE_HAVE_NEURAL
