#include "engine/model/structure.hpp"

#include "grammar/writer.hpp"

namespace rave::engine {
namespace {

struct Derived {
  std::vector<std::string> tokens;
  std::array<std::uint8_t, 21> bits{};
};

const Derived& derived(ConfigId id) {
  static const std::array<Derived, kNumConfigs> table = [] {
    std::array<Derived, kNumConfigs> out;
    for (int i = 0; i < kNumConfigs; ++i) {
      const auto tree = structure_tree(static_cast<ConfigId>(i));
      out[static_cast<std::size_t>(i)] = {grammar::structure_tokens(tree),
                                          grammar::meta_structure(tree)};
    }
    return out;
  }();
  return table[static_cast<std::size_t>(config_index(id))];
}

}  // namespace

grammar::Tree structure_tree(ConfigId id) {
  using grammar::Level;
  const Configuration& config = configuration(id);
  grammar::Tree tree;
  const auto scene = grammar::add_node(tree, std::string(grammar::kRootName), Level::kRoot);
  const auto structure =
      grammar::add_child(tree, scene, std::string(config.structure), Level::kStructure);
  for (const auto& component : config.components) {
    const auto node =
        grammar::add_child(tree, structure, std::string(component.name), Level::kComponent);
    grammar::add_child(tree, node, std::string(component.layout.name), Level::kLayout);
  }
  return tree;
}

const std::vector<std::string>& structure_tokens(ConfigId id) { return derived(id).tokens; }
const std::array<std::uint8_t, 21>& meta_structure(ConfigId id) { return derived(id).bits; }

}  // namespace rave::engine
