// Answer-set construction per strategy on pre-sampled matrices (rendering and the oracle are part
// of RAVEN-FAIR's rejection checks, so they are inside its loop, as in the original).
#include <benchmark/benchmark.h>

#include <vector>

#include "engine/answers/answer_set.hpp"
#include "engine/model/configuration.hpp"
#include "engine/render/render.hpp"
#include "engine/rules/matrix.hpp"

namespace {

using rave::engine::AnswerStrategy;

// 10 matrices of each configuration, sampled once.
const std::vector<rave::engine::Matrix>& matrices() {
  static const std::vector<rave::engine::Matrix> all = [] {
    std::vector<rave::engine::Matrix> out;
    for (const auto& config : rave::engine::all_configurations())
      for (std::uint64_t k = 0; k < 10; ++k) {
        auto rng = rave::Rng::for_problem(1234, rave::engine::config_index(config.id), k);
        out.push_back(rave::engine::sample_matrix(config.id, rng));
      }
    return out;
  }();
  return all;
}

void BM_AnswerSet_Build(benchmark::State& state, AnswerStrategy strategy) {
  const auto& ms = matrices();
  rave::Rng rng(42);
  std::size_t i = 0;
  for (auto _ : state) {
    auto set = rave::engine::build_answer_set(ms[i], strategy, rng, rave::engine::render_panel);
    benchmark::DoNotOptimize(set.target);
    i = (i + 1) % ms.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK_CAPTURE(BM_AnswerSet_Build, raven, AnswerStrategy::kRaven);
BENCHMARK_CAPTURE(BM_AnswerSet_Build, iraven, AnswerStrategy::kIRaven);
BENCHMARK_CAPTURE(BM_AnswerSet_Build, fair, AnswerStrategy::kFair);
BENCHMARK_CAPTURE(BM_AnswerSet_Build, balanced, AnswerStrategy::kBalanced);

}  // namespace
