// Throughput of the .asig problem text (engine/formats/asig_io.hpp): problems/s and bytes/s writing
// and reading whole problems, on 7 x 4 problems generated before the loop from a fixed seed.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "engine/formats/asig_io.hpp"
#include "engine/generate.hpp"

namespace {

namespace engine = rave::engine;

std::vector<engine::Problem> problems() {
  std::vector<engine::Problem> out;
  for (const auto& config : engine::all_configurations())
    for (std::uint64_t k = 0; k < 4; ++k)
      out.push_back(engine::generate_problem(config.id, engine::AnswerStrategy::kIRaven, 1234, k));
  return out;
}

void BM_Asig_Write(benchmark::State& state) {
  const auto corpus = problems();
  std::size_t bytes = 0;
  for (const auto& p : corpus) bytes += engine::write_asig(p).size();
  for (auto _ : state)
    for (const auto& p : corpus) benchmark::DoNotOptimize(engine::write_asig(p));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(corpus.size()));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_Asig_Write);

void BM_Asig_Read(benchmark::State& state) {
  std::vector<std::string> texts;
  std::size_t bytes = 0;
  for (const auto& p : problems()) {
    texts.push_back(engine::write_asig(p));
    bytes += texts.back().size();
  }
  for (auto _ : state)
    for (const auto& text : texts) benchmark::DoNotOptimize(engine::parse_asig(text, "<bench>"));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(texts.size()));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_Asig_Read);

}  // namespace
