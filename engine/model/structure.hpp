#pragma once
// A configuration as an A-SIG tree (grammar/), and the two npz fields derived from it: `structure`
// (the serialized sentence down to Layout level) and `meta_structure`
// (docs/format.md#structure-sentence).
//
//   auto tokens = structure_tokens(ConfigId::kUpDown);
//   // Scene Up_Down Up Up_Center_Single / / Down Down_Center_Single / / / /
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/configuration.hpp"
#include "grammar/tree.hpp"

namespace rave::engine {

/// Scene > Structure > Component(s) > Layout of a configuration (no entities).
grammar::Tree structure_tree(ConfigId id);
/// npz `structure` tokens.
const std::vector<std::string>& structure_tokens(ConfigId id);
/// npz `meta_structure` bits.
const std::array<std::uint8_t, 21>& meta_structure(ConfigId id);

}  // namespace rave::engine
