#pragma once
// The Dynamic Residual Tree's per-problem input (docs/neural-reference.md#dynamic-residual-tree):
// the A-SIG structure of the problem as at most 6 label rows in pre-order (scene, structure, first
// component, first layout, second component, second layout) and the indicator that the second
// branch exists. Torch-free, so that `rave train` (neural/) and the Python package (faces/python/) feed
// models the same rows. The npz `structure` sentence is parsed into a grammar::Tree first, so a
// malformed sentence is an input error with a position, not a silently shifted row.
//
//   DrtInput in = drt_input(engine::structure_tree(ConfigId::kOutInGrid));
//   in.labels == {0, 4, 9, 19, 10, 21} (Scene, Out_In, Out, Out_Center_Single, In,
//   In_Distribute_Four as rows of kDrtLabelNames);  in.indicator == 1
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "grammar/tree.hpp"
#include "grammar/vocabulary.hpp"

namespace rave::engine {

/// Number of label rows of the tree input.
inline constexpr int kDrtRows = 6;
/// Number of node labels a row may name: grammar's node names but Entity (which has no row).
inline constexpr int kDrtLabels = static_cast<int>(grammar::kNodeNames.size()) - 1;
/// The labels in row-index order: the first kDrtLabels of grammar::kNodeNames (the key order of
/// the original embedding.npy).
inline constexpr std::span<const std::string_view> kDrtLabelNames{grammar::kNodeNames.data(),
                                                                  kDrtLabels};

/// Rows as indices into kDrtLabelNames (-1 = an empty, zero row) and the pruning indicator.
struct DrtInput {
  std::array<std::int64_t, kDrtRows> labels{-1, -1, -1, -1, -1, -1};
  float indicator = 0.0f;  ///< 1 iff all 6 rows are filled (two-component configurations)
  friend bool operator==(const DrtInput&, const DrtInput&) = default;
};

/// Row of a node label; nullopt for "/", "Entity" and unknown words.
std::optional<int> drt_label_index(std::string_view name);

/// The rows of a structure tree down to Layout level, in pre-order; InputError (file = `source`)
/// when a node is not in the label table or the tree has more than 6 nodes above the entities.
DrtInput drt_input(const grammar::Tree& tree, const std::string& source = "structure");

/// Parses npz `structure` tokens (`Scene Singleton Grid Center_Single / / / /`) with grammar/ and
/// returns drt_input of the tree; InputError naming `source` and the token on a bad sentence.
DrtInput drt_input_from_tokens(std::span<const std::string> tokens, const std::string& source);

}  // namespace rave::engine
