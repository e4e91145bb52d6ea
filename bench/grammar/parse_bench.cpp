// Throughput of the A-SIG sentence parser and writer (grammar/parse.hpp, grammar/writer.hpp):
// sentences/s and bytes/s for the 7 structure sentences (npz `structure`) and for attributed panel
// sentences (a Layout with Number/Uniformity and every Entity with slot/Type/Size/Color/Angle, the
// form .asig files hold). The corpus is built before the loop from a fixed seed.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "common/random.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/structure.hpp"
#include "grammar/parse.hpp"
#include "grammar/writer.hpp"

namespace {

using rave::Rng;
namespace grammar = rave::grammar;
namespace engine = rave::engine;

std::vector<std::string> structure_corpus() {
  std::vector<std::string> out;
  for (const auto& config : engine::all_configurations())
    out.push_back(grammar::write_sentence(engine::structure_tree(config.id)));
  return out;
}

// One random panel of a configuration as an attributed tree: levels drawn uniformly from the value
// tables of docs/format.md#value-tables, entity count from the layout's Number range, distinct
// slots.
grammar::Tree random_panel(const engine::Configuration& config, Rng& rng) {
  grammar::Tree tree = engine::structure_tree(config.id);
  std::size_t component = 0;
  for (const auto node : grammar::preorder(tree)) {
    if (tree[node].level != grammar::Level::kLayout) continue;
    const auto& spec = config.components[component++].layout;
    const int count = rng.uniform_int(spec.number.min, spec.number.max) + 1;
    tree[node].attributes = {{"Number", std::to_string(count - 1)},
                             {"Uniformity", std::to_string(rng.uniform_int(0, 3))}};
    for (const int slot : rng.sample(static_cast<int>(spec.slots.size()), count)) {
      const auto entity = grammar::add_child(tree, node, "Entity", grammar::Level::kEntity);
      tree[entity].attributes = {{"slot", std::to_string(slot)},
                                 {"Type", std::to_string(rng.uniform_int(1, 5))},
                                 {"Size", std::to_string(rng.uniform_int(0, 5))},
                                 {"Color", std::to_string(rng.uniform_int(0, 9))},
                                 {"Angle", std::to_string(rng.uniform_int(0, 7))}};
    }
  }
  return tree;
}

std::vector<std::string> attributed_corpus() {
  Rng rng(20190601);
  std::vector<std::string> out;
  for (int i = 0; i < 16; ++i)
    for (const auto& config : engine::all_configurations())
      out.push_back(grammar::write_sentence(random_panel(config, rng)));
  return out;
}

void parse_corpus(benchmark::State& state, const std::vector<std::string>& corpus) {
  std::size_t bytes = 0;
  for (const auto& text : corpus) bytes += text.size();
  for (auto _ : state)
    for (const auto& text : corpus) benchmark::DoNotOptimize(grammar::parse_sentence(text));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(corpus.size()));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
}

void BM_Parse_Structure(benchmark::State& state) { parse_corpus(state, structure_corpus()); }
BENCHMARK(BM_Parse_Structure);

void BM_Parse_Attributed(benchmark::State& state) { parse_corpus(state, attributed_corpus()); }
BENCHMARK(BM_Parse_Attributed);

void BM_Write_Attributed(benchmark::State& state) {
  // adjacency_list has no move constructor: build each tree in place rather than copy it.
  std::vector<std::unique_ptr<grammar::Tree>> trees;
  std::size_t bytes = 0;
  for (const auto& text : attributed_corpus()) {
    trees.emplace_back(new grammar::Tree(grammar::parse_sentence(text)));
    bytes += text.size();
  }
  for (auto _ : state)
    for (const auto& tree : trees) benchmark::DoNotOptimize(grammar::write_sentence(*tree));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(trees.size()));
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(bytes));
}
BENCHMARK(BM_Write_Attributed);

}  // namespace
