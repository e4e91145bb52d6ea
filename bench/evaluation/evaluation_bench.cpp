// The evaluation harness end to end from files on disk, one thread: `rave export` (read each
// problem's XML and the target from its npz, solve it for the verdict, write its JSON line) per
// format, and `rave score` (read the set the same way, parse a predictions file, score it). The set
// is 100 problems per configuration from rave's generator (seed 2024, RAVEN answer sets, stored
// npz), laid out as a dataset: <folder>/<configuration>/RAVEN_<k>_test.{xml,npz}. Target: 20,000
// problems/s per core (issue 12); figures in bench/README.md.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "engine/encode.hpp"
#include "engine/generate.hpp"
#include "evaluation/export/export.hpp"
#include "evaluation/scoring/score.hpp"

namespace {

namespace fs = std::filesystem;
namespace ev = rave::evaluation;

constexpr int kPerConfig = 100;
constexpr std::uint64_t kSeed = 2024;

// The set on disk, written once.
const fs::path& dataset() {
  static const fs::path dir = [] {
    fs::path root = fs::temp_directory_path() / "rave-bench-evaluation";
    fs::remove_all(root);
    for (int c = 0; c < rave::engine::kNumConfigs; ++c) {
      const auto id = static_cast<rave::engine::ConfigId>(c);
      const fs::path folder = root / std::string(rave::engine::configuration(id).folder);
      fs::create_directories(folder);
      for (int k = 0; k < kPerConfig; ++k) {
        const auto p = rave::engine::generate_problem(id, rave::engine::AnswerStrategy::kRaven,
                                                      kSeed, static_cast<std::uint64_t>(k));
        rave::engine::write_problem_files(folder, "RAVEN_" + std::to_string(k) + "_test",
                                          rave::engine::encode_problem_files(p));
      }
    }
    return root;
  }();
  return dir;
}

void BM_Export_FromXml(benchmark::State& state) {
  const auto format = static_cast<ev::ExportFormat>(state.range(0));
  std::string out;
  std::size_t problems = 0;
  for (auto _ : state) {
    out.clear();
    problems += ev::export_set(dataset(), {.format = format}, 1, out).written;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(problems));
  state.SetLabel(std::string(ev::format_name(format)));
}
BENCHMARK(BM_Export_FromXml)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_Score_FromXml(benchmark::State& state) {
  std::string lines;  // a predictions file: every answer, as a model would write it
  for (const auto& item : ev::load_items(dataset(), 1))
    lines +=
        "{\"id\": \"" + item.id + "\", \"answer\": " + std::to_string(item.blind_answer) + "}\n";
  std::size_t problems = 0;
  for (auto _ : state) {
    const auto key = ev::AnswerKey::load(dataset(), 1);
    const auto score = ev::score_file(key, ev::parse_predictions(lines, "bench.jsonl"), {});
    benchmark::DoNotOptimize(score.total.correct);
    problems += key.items().size();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(problems));
}
BENCHMARK(BM_Score_FromXml)->Unit(benchmark::kMillisecond);

}  // namespace
