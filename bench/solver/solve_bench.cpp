// Solving throughput: problems already in memory per backend (with and without the rule names), and
// end to end from problem XML files (read + parse + solve; optionally the npz beside it for the
// target). Problems are made by rave's generator with a fixed seed, 100 per configuration, RAVEN
// answer sets. Compare with the original's ~5,000 problems/s with the rules given
// (bench/README.md#the-originals-figures) in bench/README.md.
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>
#include <vector>

#include "engine/encode.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/formats/xml_io.hpp"
#include "engine/generate.hpp"
#include "jobs/dataset.hpp"
#include "solver/heuristic.hpp"
#include "solver/z3_backend.hpp"

namespace {

using rave::engine::AnswerStrategy;
using rave::engine::ConfigId;
using rave::engine::Problem;
namespace solver = rave::solver;

constexpr int kPerConfig = 100;
constexpr std::uint64_t kSeed = 2024;

// config < 0: all seven configurations, interleaved.
const std::vector<Problem>& problems(int config) {
  static std::vector<std::vector<Problem>> by_config = [] {
    std::vector<std::vector<Problem>> out(rave::engine::kNumConfigs + 1);
    for (int k = 0; k < kPerConfig; ++k)
      for (int c = 0; c < rave::engine::kNumConfigs; ++c) {
        Problem p = rave::engine::generate_problem(static_cast<ConfigId>(c), AnswerStrategy::kRaven,
                                                   kSeed, static_cast<std::uint64_t>(k));
        out[c].push_back(p);
        out.back().push_back(std::move(p));
      }
    return out;
  }();
  return by_config[config < 0 ? rave::engine::kNumConfigs : config];
}

std::string label(int config) {
  return config < 0
             ? "mix of 7"
             : std::string(rave::engine::configuration(static_cast<ConfigId>(config)).paper_name);
}

template <class Solver>
void solve_loop(benchmark::State& state, Solver& s, const std::vector<Problem>& set) {
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(s.solve(set[i]));
    if (++i == set.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_Heuristic_InMemory(benchmark::State& state) {
  const int config = static_cast<int>(state.range(0));
  solver::HeuristicSolver s;
  solve_loop(state, s, problems(config));
  state.SetLabel(label(config));
}
BENCHMARK(BM_Heuristic_InMemory)->DenseRange(-1, 6);

// 7000 distinct problems (1000 per configuration, interleaved, 21 MB): no problem comes back within
// 7000 iterations, so neither the caches nor the branch predictor hold it from its last visit, as
// they partly do for the 100 of one configuration and the 700 of the mix.
void BM_Heuristic_InMemoryDistinct(benchmark::State& state) {
  static const std::vector<Problem> distinct = [] {
    std::vector<Problem> out;
    for (int k = 0; k < 10 * kPerConfig; ++k)
      for (int c = 0; c < rave::engine::kNumConfigs; ++c)
        out.push_back(rave::engine::generate_problem(static_cast<ConfigId>(c),
                                                     AnswerStrategy::kRaven, kSeed,
                                                     static_cast<std::uint64_t>(k)));
    return out;
  }();
  solver::HeuristicSolver s;
  solve_loop(state, s, distinct);
  state.SetLabel("7000 distinct, mix of 7");
}
BENCHMARK(BM_Heuristic_InMemoryDistinct);

void BM_Heuristic_InMemoryUseRules(benchmark::State& state) {
  solver::HeuristicSolver s({.use_rules = true});
  solve_loop(state, s, problems(-1));
  state.SetLabel(label(-1));
}
BENCHMARK(BM_Heuristic_InMemoryUseRules);

void BM_Z3_InMemory(benchmark::State& state) {
  const int config = static_cast<int>(state.range(0));
  solver::Z3Solver s;
  solve_loop(state, s, problems(config));
  state.SetLabel(label(config));
}
BENCHMARK(BM_Z3_InMemory)->DenseRange(-1, 6);

void BM_Z3_InMemoryUseRules(benchmark::State& state) {
  solver::Z3Solver s({.use_rules = true});
  solve_loop(state, s, problems(-1));
  state.SetLabel(label(-1));
}
BENCHMARK(BM_Z3_InMemoryUseRules);

// Problem files on disk: the mix of 700, XML only or XML + npz (rendered once at set-up).
const std::vector<std::filesystem::path>& problem_files(bool with_npz) {
  static const auto dir = std::filesystem::temp_directory_path() / "rave-bench-solve";
  static std::vector<std::filesystem::path> xml_only, with_target;
  auto& out = with_npz ? with_target : xml_only;
  if (!out.empty()) return out;
  const auto folder = dir / (with_npz ? "npz" : "xml");
  std::filesystem::create_directories(folder);
  int k = 0;
  for (const Problem& p : problems(-1)) {
    const std::string stem = "RAVEN_" + std::to_string(k++) + "_train";
    if (with_npz) {
      rave::engine::write_problem_files(folder, stem, rave::engine::encode_problem_files(p));
    } else {
      std::FILE* f = std::fopen((folder / (stem + ".xml")).c_str(), "wb");
      const std::string xml = rave::engine::write_problem_xml(p);
      std::fwrite(xml.data(), 1, xml.size(), f);
      std::fclose(f);
    }
    out.push_back(folder / (stem + ".xml"));
  }
  return out;
}

void BM_Heuristic_FromXmlFile(benchmark::State& state) {
  const bool with_npz = state.range(0) != 0;
  const auto& files = problem_files(with_npz);
  solver::HeuristicSolver s;
  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(s.solve(
        rave::engine::read_problem(files[i], with_npz ? rave::engine::TargetSource::kSibling
                                                      : rave::engine::TargetSource::kNone)));
    if (++i == files.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(with_npz ? "xml + npz target" : "xml only");
}
BENCHMARK(BM_Heuristic_FromXmlFile)->Arg(0)->Arg(1);

void BM_Heuristic_FromXmlText(benchmark::State& state) {
  std::vector<std::string> texts;
  for (const Problem& p : problems(-1)) texts.push_back(rave::engine::write_problem_xml(p));
  solver::HeuristicSolver s;
  std::size_t i = 0, bytes = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(s.solve(rave::engine::parse_problem_xml(texts[i], "bench.xml")));
    bytes += texts[i].size();
    if (++i == texts.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_Heuristic_FromXmlText);

}  // namespace
