#pragma once
// Image benchmarks for vision-language models
// (docs/evaluation.md#image-benchmarks-for-vision-language-models): every problem of a set as an
// answer-free sheet PNG (the N x N matrix, its last cell "?", above the 8 candidates
// labelled 1..8), optionally its panels as separate PNGs (the N*N-1 context panels, then the 8
// candidates), and one JSON line naming the images and a prompt for each form. The answer is never
// drawn; the JSON line names it only when asked (`with_answer`).
//
//   VlmOptions o{.panels = true};
//   VlmCounts n = export_vlm("data/raven", "bench", o, /*threads=*/2);   // bench/vlm.jsonl, ...
//   VlmEntry e = vlm_entry({.id = "RAVEN_0_train", .split = "train"}, problem, o);   // in memory
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/problem.hpp"

namespace rave::evaluation {

/// The JSON Lines file of a benchmark folder: one line per problem, in file order.
inline constexpr std::string_view kVlmIndex = "vlm.jsonl";

/// What to write besides each problem's sheet and JSON line.
struct VlmOptions {
  bool panels = false;       ///< each context and candidate panel as its own PNG, and its prompt
  bool with_answer = false;  ///< "answer" (the label) and "target" (the index) in the JSON line
  /// Show the candidates in candidate_order(seed, id) (shuffle.hpp), as `rave export
  /// --answers-shuffled` does; the line records "answers_shuffled" and its answer is in that order.
  std::optional<std::uint64_t> shuffle_seed = {};
  /// Draw every problem in this render style (engine/model/style.hpp) instead of its own.
  std::optional<engine::RenderStyle> style = {};
};

/// Where a problem comes from: its id (the path below the set without extension) and split.
struct VlmSource {
  std::string id;
  std::string split = {};
  std::string file = {};  ///< the problem file, for errors
};

/// One output file: its path relative to the benchmark folder (as the JSON line names it) and its
/// bytes.
struct VlmFile {
  std::string path;
  std::string bytes;
};

/// What one problem becomes: its files and its JSON line (no newline).
struct VlmEntry {
  std::vector<VlmFile> files;
  std::string line;
};

/// The label of candidate `index` (0-based, the npz `target`'s numbering) on the sheet and in the
/// prompts and "answer": index + 1.
constexpr int candidate_label(int index) { return index + 1; }

/// What the sheet of an N x N problem shows (the prompt's first sentences): the matrix with its
/// last cell "?", the candidates labelled 1 to 8.
std::string sheet_description(int grid);
/// What the images of the panels form are, in order.
std::string panels_description(int grid);
/// The prompt of the sheet form (one image) of an N x N problem.
std::string sheet_prompt(int grid);
/// The prompt of the panels form (N*N-1 context images, then the 8 candidates).
std::string panels_prompt(int grid);

/// Throws InputError naming `file` when `problem`'s levels have no drawing (more than 5 levels per
/// attribute, docs/variants.md): rave draws no lossy picture of them.
void check_drawable(const engine::Problem& problem, const std::string& file);

/// The files and JSON line of one problem. Throws InputError as check_drawable.
VlmEntry vlm_entry(const VlmSource& source, const engine::Problem& problem,
                   const VlmOptions& options);

/// Problems and images written.
struct VlmCounts {
  std::size_t problems = 0;
  std::size_t images = 0;
};

/// Whether `out` may receive a benchmark: it does not exist, is an empty folder, or is a folder
/// holding a previous benchmark's kVlmIndex (which export_vlm then replaces whole).
bool vlm_output_replaceable(const std::filesystem::path& out);

/// Writes the benchmark of every problem under `root` (a folder walked recursively for .xml, with
/// the npz beside it, and .asig files, or one file) into the folder `out` on `threads` workers.
/// The folder is built beside `out` under a temporary name and renamed into place only when every
/// problem is written, so an error leaves `out` as it was. The bytes do not depend on `threads`.
/// Throws UsageError when `out` is not vlm_output_replaceable, InputError naming the first bad
/// file in file order (unreadable, undrawable, a duplicate id) or a failed write.
VlmCounts export_vlm(const std::filesystem::path& root, const std::filesystem::path& out,
                     const VlmOptions& options, int threads);

}  // namespace rave::evaluation
