// Dataset I/O throughput (docs/format.md): the problem XML both ways (masks and real_bbox come from
// warm entity templates), the npz stored (numpy.savez) and deflated (savez_compressed) both ways,
// and BM_Problem_Save = render 16 panels + XML + stored npz, everything but sampling that the
// original's "saving" run does per problem (bench/README.md#the-originals-figures: 0.97-3.3 CPU ms
// for render + XML + npz).
#include <benchmark/benchmark.h>

#include <string>

#include "bench/engine/sample_problems.hpp"
#include "engine/encode.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/xml_io.hpp"
#include "engine/render/render.hpp"

namespace {

using rave::engine::ConfigId;

void BM_Xml_Write(benchmark::State& state, ConfigId id) {
  const auto problems = rave::bench::bench_problems(id, 32);
  for (const auto& p : problems) benchmark::DoNotOptimize(rave::engine::write_problem_xml(p));
  std::size_t i = 0, bytes = 0;
  for (auto _ : state) {
    const std::string xml = rave::engine::write_problem_xml(problems[i++ % problems.size()]);
    bytes += xml.size();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}

void BM_Xml_Read(benchmark::State& state, ConfigId id) {
  std::vector<std::string> texts;
  for (const auto& p : rave::bench::bench_problems(id, 32))
    texts.push_back(rave::engine::write_problem_xml(p));
  std::size_t i = 0, bytes = 0;
  for (auto _ : state) {
    const std::string& text = texts[i++ % texts.size()];
    benchmark::DoNotOptimize(rave::engine::parse_problem_xml(text, "bench.xml"));
    bytes += text.size();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}

rave::engine::NpzContents contents_of(ConfigId id) {
  const auto p = rave::bench::bench_problems(id, 1).front();
  return rave::engine::npz_contents(p, rave::engine::render_problem(p));
}

void BM_Npz_Encode(benchmark::State& state, ConfigId id, bool compress) {
  const auto p = rave::bench::bench_problems(id, 1).front();
  const auto images = rave::engine::render_problem(p);
  std::size_t bytes = 0;
  std::string out;  // reused, as a dataset writer thread does
  for (auto _ : state) {
    rave::engine::encode_problem_npz(out, p, images, compress);
    bytes += out.size();
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}

// The same with a fresh std::string per call (encode_problem_npz's value form): what the 400 KB
// allocation and its page faults cost on top.
void BM_Npz_EncodeFresh(benchmark::State& state, ConfigId id) {
  const auto p = rave::bench::bench_problems(id, 1).front();
  const auto images = rave::engine::render_problem(p);
  std::size_t bytes = 0;
  for (auto _ : state) bytes += rave::engine::encode_problem_npz(p, images, false).size();
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<std::int64_t>(bytes));
}

void BM_Npz_Read(benchmark::State& state, ConfigId id, bool compress) {
  const std::string bytes = rave::engine::encode_npz(contents_of(id), compress);
  for (auto _ : state)
    benchmark::DoNotOptimize(rave::engine::parse_npz(bytes, "bench.npz").contents());
  state.SetItemsProcessed(state.iterations());
}

void BM_Problem_Save(benchmark::State& state, ConfigId id) {
  const auto problems = rave::bench::bench_problems(id, 32);
  for (const auto& p : problems) benchmark::DoNotOptimize(rave::engine::write_problem_xml(p));
  std::size_t i = 0;
  for (auto _ : state) {  // as jobs/dataset.cpp's encode_problem_files does it
    const auto& p = problems[i++ % problems.size()];
    const auto images = rave::engine::render_problem(p);
    benchmark::DoNotOptimize(rave::engine::encode_problem_npz(p, images, false));
    benchmark::DoNotOptimize(rave::engine::write_problem_xml(p));
  }
  state.SetItemsProcessed(state.iterations());
}

const bool kRegistered = [] {
  for (const auto& config : rave::engine::all_configurations()) {
    const std::string folder(config.folder);
    benchmark::RegisterBenchmark(("BM_Xml_Write/" + folder).c_str(), BM_Xml_Write, config.id);
    benchmark::RegisterBenchmark(("BM_Xml_Read/" + folder).c_str(), BM_Xml_Read, config.id);
    benchmark::RegisterBenchmark(("BM_Problem_Save/" + folder).c_str(), BM_Problem_Save, config.id);
  }
  benchmark::RegisterBenchmark("BM_Npz_EncodeFresh/distribute_nine/stored", BM_Npz_EncodeFresh,
                               ConfigId::kDistributeNine);
  for (ConfigId id : {ConfigId::kCenterSingle, ConfigId::kDistributeNine})
    for (bool compress : {false, true}) {
      const std::string name = std::string(rave::engine::configuration(id).folder) +
                               (compress ? "/compressed" : "/stored");
      benchmark::RegisterBenchmark(("BM_Npz_Encode/" + name).c_str(), BM_Npz_Encode, id, compress);
      benchmark::RegisterBenchmark(("BM_Npz_Read/" + name).c_str(), BM_Npz_Read, id, compress);
    }
  return true;
}();

}  // namespace
