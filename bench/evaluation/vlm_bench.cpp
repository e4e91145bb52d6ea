// Image benchmarks for vision-language models (`rave show DIR --vlm OUT`, evaluation/export/vlm.hpp), one
// thread: the whole export from files on disk (read each XML and the target from its npz, render
// the panels, draw the answer-free sheet, encode the PNGs, write them and the JSON lines into a
// folder renamed into place), the sheet alone and with every panel as its own PNG; and one problem
// in memory (render, sheet, PNG, line), which says what the files cost. The set is 30 problems per
// configuration from rave's generator (seed 2024, RAVEN answer sets, stored npz). Target: 500
// problems/s per core (issue 27); figures in bench/README.md.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "engine/encode.hpp"
#include "engine/generate.hpp"
#include "evaluation/export/vlm.hpp"

namespace {

namespace fs = std::filesystem;
namespace ev = rave::evaluation;

constexpr int kPerConfig = 30;
constexpr std::uint64_t kSeed = 2024;

rave::engine::Problem problem(int config, int k) {
  return rave::engine::generate_problem(static_cast<rave::engine::ConfigId>(config),
                                        rave::engine::AnswerStrategy::kRaven, kSeed,
                                        static_cast<std::uint64_t>(k));
}

// The set on disk, written once.
const fs::path& dataset() {
  static const fs::path dir = [] {
    fs::path root = fs::temp_directory_path() / "rave-bench-vlm";
    fs::remove_all(root);
    for (int c = 0; c < rave::engine::kNumConfigs; ++c) {
      const auto id = static_cast<rave::engine::ConfigId>(c);
      const fs::path folder = root / "set" / std::string(rave::engine::configuration(id).folder);
      fs::create_directories(folder);
      for (int k = 0; k < kPerConfig; ++k)
        rave::engine::write_problem_files(folder, "RAVEN_" + std::to_string(k) + "_test",
                                          rave::engine::encode_problem_files(problem(c, k)));
    }
    return root;
  }();
  return dir;
}

void BM_Vlm_Export(benchmark::State& state) {
  const ev::VlmOptions options{.panels = state.range(0) != 0};
  std::size_t problems = 0;
  for (auto _ : state)
    problems += ev::export_vlm(dataset() / "set", dataset() / "out", options, 1).problems;
  state.SetItemsProcessed(static_cast<std::int64_t>(problems));
  state.SetLabel(options.panels ? "sheet + 16 panels" : "sheet");
}
BENCHMARK(BM_Vlm_Export)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_Vlm_Entry(benchmark::State& state) {
  const ev::VlmOptions options{.panels = state.range(0) != 0};
  std::vector<rave::engine::Problem> problems;
  for (int c = 0; c < rave::engine::kNumConfigs; ++c) problems.push_back(problem(c, 0));
  std::size_t n = 0, bytes = 0;
  for (auto _ : state) {
    const auto& p = problems[n++ % problems.size()];
    for (const ev::VlmFile& f : ev::vlm_entry({.id = "x"}, p, options).files)
      bytes += f.bytes.size();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(n));
  state.counters["png_bytes"] = static_cast<double>(bytes) / static_cast<double>(n);
  state.SetLabel(options.panels ? "sheet + 16 panels" : "sheet");
}
BENCHMARK(BM_Vlm_Entry)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace
