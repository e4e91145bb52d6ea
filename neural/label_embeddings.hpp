#pragma once
// The fixed word vectors the Dynamic Residual Tree reads for its node labels (spec/neural.md 3.3).
// The original ships GloVe vectors as a Python-2 pickle (assets/embedding.npy); rave has a built-in,
// deterministic 22x300 table with the same algebra (a compound label is the sum of its parts:
// Left_Center_Single = Left + Center + Single), or reads a converted table from a plain .npy file.
//
//   std::vector<float> table = builtin_label_embeddings();   // kNumLabels x kEmbeddingDim
//   int row = *label_index("Out_In");                        // 4
//   auto glove = load_label_embeddings("embedding22x300.npy");
#include <array>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "neural/options.hpp"

namespace rave::neural {

/// Row order of the table: Scene, then META_STRUCTURE_FORMAT (spec/raven.md 11.2), i.e. the key
/// order of the original embedding.npy as listed in spec/neural.md 3.3.
inline constexpr std::array<std::string_view, kNumLabels> kLabelNames{
    "Scene",           "Singleton",          "Left_Right",          "Up_Down",
    "Out_In",          "Left",               "Right",               "Up",
    "Down",            "Out",                "In",                  "Grid",
    "Center_Single",   "Distribute_Four",    "Distribute_Nine",     "Left_Center_Single",
    "Right_Center_Single", "Up_Center_Single", "Down_Center_Single", "Out_Center_Single",
    "In_Center_Single", "In_Distribute_Four"};

/// Row of a node label in the table; nullopt for "/" and unknown words.
std::optional<int> label_index(std::string_view name);

/// The built-in table: one N(0, 0.4^2) vector per base word (Scene, Singleton, Grid, Left, Right,
/// Up, Down, Out, In, Center, Single, Distribute, Four, Nine) drawn from Rng with a fixed
/// seed, compound labels summed from their words. Same values on every platform.
std::vector<float> builtin_label_embeddings();

/// Reads a float32 (22, 300) C-order .npy file (rows in kLabelNames order); InputError otherwise.
std::vector<float> load_label_embeddings(const std::filesystem::path& npy);

}  // namespace rave::neural
