#pragma once
// The fixed word vectors the Dynamic Residual Tree reads for its node labels
// (docs/neural-reference.md). The default is the original's 22 GloVe vectors (assets/embedding.npy,
// converted once to neural/data/glove-22x300.npy and compiled into the library); "random" is a
// seeded 22x300 table with the same algebra (a compound label is the sum of its parts:
// Left_Center_Single = Left + Center + Single); any other (22, 300) float32 .npy can be read.
//
//   std::vector<float> table = glove_label_embeddings();     // kNumLabels x kEmbeddingDim
//   int row = *label_index("Out_In");                        // 4
//   LabelTable t = label_table("random");                    // t.name == "random"
#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "grammar/vocabulary.hpp"
#include "neural/options.hpp"

namespace rave::neural {

/// Row order of the table: Scene, then META_STRUCTURE_FORMAT (docs/format.md), i.e. the key
/// order of the original embedding.npy as listed in docs/neural-reference.md: the first
/// kNumLabels of grammar's node names (Entity, the last, has no vector).
inline constexpr std::array<std::string_view, kNumLabels> kLabelNames = [] {
  static_assert(static_cast<std::size_t>(kNumLabels) + 1 == grammar::kNodeNames.size());
  std::array<std::string_view, kNumLabels> names{};
  for (std::size_t i = 0; i < names.size(); ++i) names[i] = grammar::kNodeNames[i];
  return names;
}();

/// Row of a node label in the table; nullopt for "/" and unknown words.
std::optional<int> label_index(std::string_view name);

/// The original's GloVe vectors (neural/data/glove-22x300.npy, embedded in the library).
std::vector<float> glove_label_embeddings();

/// The seeded table: one N(0, 0.4^2) vector per base word (Scene, Singleton, Grid, Left, Right,
/// Up, Down, Out, In, Center, Single, Distribute, Four, Nine) drawn from Rng with a fixed
/// seed, compound labels summed from their words. Same values on every platform.
std::vector<float> random_label_embeddings();

/// Reads a float32 (22, 300) C-order .npy file (rows in kLabelNames order); InputError otherwise.
std::vector<float> load_label_embeddings(const std::filesystem::path& npy);

/// A label table and the name a checkpoint records for it.
struct LabelTable {
  std::string name;           ///< "glove", "random" or the .npy path
  std::vector<float> values;  ///< kNumLabels x kEmbeddingDim
};
/// "glove" (the default), "random", or a path to a .npy file (InputError when unreadable).
LabelTable label_table(const std::string& word);

}  // namespace rave::neural
