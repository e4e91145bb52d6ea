// One Adam step over CNN_MLP+DRT's 2.05 M parameters with fixed random gradients: torch's Adam
// against FusedAdam (neural/adam.hpp), interleaved repetitions in one run. Built only with the
// neural library.
#ifdef RAVE_HAVE_NEURAL
#include <benchmark/benchmark.h>

#include <memory>

#include "neural/adam.hpp"
#include "neural/epoch_loop.hpp"
#include "neural/models.hpp"
#include "neural/train_step.hpp"

namespace {

using namespace rave::neural;

template <typename Optimizer>
void adam_steps(benchmark::State& state) {
  set_compute_threads(1);
  torch::manual_seed(1);
  auto model = make_model({.kind = ModelKind::kCnn, .drt = true});
  for (auto& p : model->parameters()) p.mutable_grad() = torch::randn_like(p) * 1e-3;
  Optimizer adam(model->parameters(), torch::optim::AdamOptions(1e-4));
  adam.step();  // the moments exist before timing starts
  for (auto _ : state) adam.step();
  state.SetItemsProcessed(state.iterations() * parameter_count(*model));
}

void BM_Adam_Torch(benchmark::State& s) { adam_steps<torch::optim::Adam>(s); }
void BM_Adam_Fused(benchmark::State& s) { adam_steps<FusedAdam>(s); }

BENCHMARK(BM_Adam_Torch)->Repetitions(5)->ReportAggregatesOnly(true)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Adam_Fused)->Repetitions(5)->ReportAggregatesOnly(true)->Unit(benchmark::kMillisecond);

}  // namespace

#endif  // RAVE_HAVE_NEURAL
