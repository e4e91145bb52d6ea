#pragma once
// The files of a RAVEN dataset split and the decoding of one problem for the models
// (docs/neural-reference.md#data-and-preprocessing): `<root>/<configuration
// folder>/RAVEN_<k>_<split>.npz`, the split taken from the file-name suffix (the original matched
// "train" anywhere in the path, so a root named /data/test_runs/ broke it); panels resized with
// Pillow's bilinear filter; the structure sentence parsed into the tree's rows. Torch-free.
//
//   auto files = list_split("data/raven", engine::Split::kTrain, {});   // all 7 configurations
//   LoadedProblem p = load_problem(files[0], PanelResizer(160, 80));
#include <array>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "engine/formats/layout.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/resize.hpp"
#include "neural/structure_input.hpp"

namespace rave::neural {

/// Pillow's bilinear resize, shared with faces/python/ (engine/model/resize.hpp).
using engine::PanelResizer;

/// One problem file and the configuration folder it sits in.
struct DataFile {
  std::filesystem::path path;
  engine::ConfigId config = engine::ConfigId::kCenterSingle;
  friend bool operator==(const DataFile&, const DataFile&) = default;
};

/// True when `file` is an .npz whose name says `split` (engine::parse_problem_name: the
/// `_<split>` suffix decides, never the folders).
bool in_split(const std::filesystem::path& file, engine::Split split);

/// The npz files of one split: for each configuration folder under `root` (in ConfigId order,
/// restricted to `configs` unless empty), its `*_<split>.npz` files ordered by problem number.
/// `root` may also be a single configuration folder. InputError when `root` does not exist or
/// when the split is empty.
std::vector<DataFile> list_split(const std::filesystem::path& root, engine::Split split,
                                 std::span<const engine::ConfigId> configs);

/// One problem as the models take it.
struct LoadedProblem {
  std::vector<std::uint8_t> image;         ///< 16 x S x S panels, file order
  std::int64_t target = 0;                 ///< 0..7
  std::array<float, 9> meta_target{};      ///< rule bits
  std::array<float, 21> meta_structure{};  ///< structure bits
  DrtInput drt;                            ///< the tree's rows and indicator
  engine::ConfigId config = engine::ConfigId::kCenterSingle;
};

/// Reads an npz, checks it, resizes the 16 panels with `resize` (160 -> S) and parses its
/// structure; `candidates_only` zeroes the 8 context panels (the answer-set shortcut ablation).
/// InputError naming the file on a missing, truncated or inconsistent npz.
LoadedProblem load_problem(const DataFile& file, const PanelResizer& resize,
                           bool candidates_only = false);

/// Mirrors every panel left-right (each row of each side x side panel reversed): the whole problem
/// as seen in a mirror, which keeps every row rule a row rule (PredRNet's RandomHorizontalFlip).
void mirror_panels(LoadedProblem& p, int side);

/// Puts the 8 candidates in the order `order` (candidate i becomes old candidate order[i]) and
/// moves the target with them: the candidate-shuffle augmentation the original loader had (off).
void permute_candidates(LoadedProblem& problem, const std::array<int, 8>& order);

}  // namespace rave::neural
