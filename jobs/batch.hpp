#pragma once
// Solving many problem files: each file is read and solved on a worker (one solver per worker
// thread), and results are handed back in file order, so output is identical for any thread count.
// A file that cannot be read becomes a result with an error line; the others are still solved.
// An .npz with no XML beside it (or any file with from_pixels) is solved from its image alone
// (jobs/from_pixels.hpp).
//
//   BatchOptions o{.backend = Backend::kZ3, .threads = 4};
//   AccuracyTable table;
//   solve_files(files, o, [&](const FileResult& r) { table.add(r); print(r); });
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/formats/npz.hpp"
#include "engine/model/problem.hpp"
#include "perception/perceive.hpp"
#include "solver/solver.hpp"

namespace rave::jobs {

struct BatchOptions {
  solver::Backend backend = solver::Backend::kHeuristic;
  solver::SolveOptions solve;
  solver::Z3Budget budget;
  int threads = 1;
  bool from_pixels = false;  ///< solve every file from its npz image, ignoring any XML
  /// How the pictures were drawn (style, values, confounders); none: as the rave.json of the
  /// dataset the file lies in records, else the original's.
  std::optional<perception::PerceiveOptions> drawing{};
};

/// The outcome for one file.
struct FileResult {
  std::filesystem::path file;
  std::string error;        ///< non-empty: the file could not be read (one line)
  engine::Problem problem;  ///< as read (empty on error)
  solver::Solution solution;
  /// The consistent candidates with the rule assignment that explains each, the answer first.
  std::vector<std::pair<int, solver::Reading>> readings;
  /// Solved from pixels: what perception read (problem then holds its first readings).
  std::optional<perception::PerceivedProblem> perceived;

  bool ok() const { return error.empty(); }
  bool correct() const { return ok() && problem.target && solution.answer == problem.target; }
};

/// The files `rave solve` reads for `inputs`: problem files (.xml, .asig) and, in folders, .npz
/// files with no XML beside them; with `from_pixels`, the .npz files (an .xml named stands for the
/// .npz beside it). Throws InputError for an input that does not exist.
std::vector<std::filesystem::path> collect_inputs(const std::vector<std::filesystem::path>& inputs,
                                                  bool from_pixels);
/// How the npz `file` was drawn, as the rave.json of its dataset (its folder or the one above)
/// records; the original's when there is none. Read once per folder.
perception::PerceiveOptions recorded_drawing(const std::filesystem::path& file);
/// The panels of an npz read as `drawing` says: InputError naming the file and member when their
/// side is not the style's.
perception::PerceivedProblem perceive_npz(const engine::NpzFile& npz,
                                          const perception::PerceiveOptions& drawing);
/// Whether `file` is solved from its image (an .npz with no XML beside it, or `from_pixels`).
bool solves_from_pixels(const std::filesystem::path& file, bool from_pixels);

/// Reads and solves `files`, calling `on_result` once per file, in file order, on the calling
/// thread.
void solve_files(const std::vector<std::filesystem::path>& files, const BatchOptions& options,
                 const std::function<void(const FileResult&)>& on_result);

/// Solves n problems that `make(i)` gives on the workers (one of a file of many, read when its
/// turn comes: memory holds a chunk of them), named name(i), in order; an InputError from make(i)
/// is problem i's error.
void solve_made(std::size_t n, const BatchOptions& options,
                const std::function<std::filesystem::path(std::size_t)>& name,
                const std::function<engine::Problem(std::size_t)>& make,
                const std::function<void(const FileResult&)>& on_result);

/// Counts per configuration (paper column order, docs/format.md#configurations) and in total.
struct AccuracyTable {
  struct Cell {
    int problems = 0;     ///< solved problems
    int with_target = 0;  ///< ... whose answer is known
    int correct = 0;
    int unique = 0, ambiguous = 0, none = 0, unknown = 0;
    int panels = 0, exact_panels = 0;  ///< solved from pixels: panels read, and read back exactly
    int identical_images = 0;          ///< answers whose image another consistent candidate shares
  };
  std::array<Cell, 7> configs{};
  Cell total;
  int errors = 0;

  void add(const FileResult& result);
  /// correct / with_target of a cell, or nullopt when no answer is known.
  static std::optional<double> accuracy(const Cell& cell);
};

}  // namespace rave::jobs
