#pragma once
// Writing RAVEN datasets: folders and file names as the original (`<config>/RAVEN_<k>_<split>.npz`
// and `.xml`, split by k mod 10, docs/format.md#split-and-file-names), every problem from its own
// random stream, both files of a problem written atomically, in parallel on a TBB arena of
// `threads` workers. Output is byte-identical for any thread count. A run holds an exclusive lock
// on the folder (a second writer is refused, naming the first), writes the manifest rave.json
// (jobs/dataset_manifest.hpp, docs/dataset.md) before the first problem and with every file's
// size and CRC-32 at the end, and records each finished problem in a journal meanwhile. `resume`
// continues only a dataset whose manifest agrees with the run, and skips a problem only when both
// its files match their record; temporary files left by a killed run are removed. A stop flag (set
// by a signal handler) ends a run after the problems in flight, ready to resume.
// A variant (docs/variants.md) changes the problems, not the layout; `shard` K/N writes the K-th of
// N disjoint slices of the problem indices, so N machines make one dataset between them, file for
// file the one a single machine makes.
//
//   DatasetSpec spec{.dir = "out", .configs = {ConfigId::kCenterSingle}, .num_samples = 10};
//   DatasetReport r = write_dataset(spec, [](const DatasetProgress& p) { ... });
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/answers/answer_set.hpp"
#include "engine/encode.hpp"
#include "engine/formats/layout.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"
#include "engine/model/variant.hpp"

namespace rave::jobs {

/// Whether a drawn problem may enter the dataset; called from worker threads at once (thread-safe).
using AcceptFn = std::function<bool(const engine::Problem&)>;

/// Most problems one dataset may hold (its manifest lists every file; far beyond any disk).
inline constexpr std::uint64_t kMaxDatasetProblems = 100'000'000;
/// Most draws of one problem under an acceptance test before the run fails.
inline constexpr std::uint64_t kMaxDraws = 1000;

/// The K-th of N slices of a dataset's problems (1 <= K <= N): global problem index i
/// (configurations in order, k within each) belongs to shard i mod N + 1.
struct Shard {
  int index = 1;
  int count = 1;
  bool holds(std::uint64_t i) const {
    return i % static_cast<std::uint64_t>(count) == static_cast<std::uint64_t>(index - 1);
  }
  friend bool operator==(const Shard&, const Shard&) = default;
};

/// What to generate and where.
struct DatasetSpec {
  std::filesystem::path dir;              ///< save dir; one sub-folder per configuration
  std::vector<engine::ConfigId> configs;  ///< empty means all seven; each at most once
  std::uint64_t num_samples = 0;          ///< problems per configuration (> 0)
  std::uint64_t seed = 1234;
  int val = 2;   ///< tenths of problems in val
  int test = 2;  ///< tenths of problems in test
  engine::AnswerStrategy answers = engine::AnswerStrategy::kRaven;
  bool compress = false;  ///< deflate the npz (numpy.savez_compressed)
  bool resume = false;    ///< continue: skip problems whose files match rave.json / the journal
  int threads = 1;        ///< worker threads (>= 1)
  std::vector<std::string>
      command{};              ///< the command that makes the dataset: in rave.json and the lock
  AcceptFn accept{};          ///< empty, or: redraw problem k (attempt 1, 2, ...) until it passes
  std::string accept_name{};  ///< what accept tests, recorded in rave.json ("unique")
  const std::atomic<int>* stop = nullptr;  ///< non-zero: finish the problems in flight and return
  engine::Variant variant{};               ///< the original unless set (docs/variants.md)
  bool symbolic_only = false;              ///< no images: npz without `image`, XML without masks
  Shard shard{};                           ///< the slice of the problems this run writes
  engine::RenderStyle style{};             ///< how the panels are drawn (the original's by default)
};

/// Counters reported while writing (from worker threads, one call at a time).
struct DatasetProgress {
  std::uint64_t done = 0;     ///< problems written or skipped so far
  std::uint64_t total = 0;    ///< problems in the whole run
  std::uint64_t skipped = 0;  ///< problems skipped by resume
};
using ProgressFn = std::function<void(const DatasetProgress&)>;

/// The outcome of a run.
struct DatasetReport {
  std::uint64_t written = 0;  ///< problems written by this run (redone included)
  std::uint64_t skipped = 0;  ///< problems whose files matched their record (resume)
  std::uint64_t redone = 0;  ///< problems whose files existed but did not match a record, rewritten
  std::uint64_t removed_temporary = 0;  ///< temporary files of a killed run, removed
  std::uint64_t redrawn = 0;            ///< problems of the dataset drawn more than once (accept)
  std::uint64_t draws = 0;   ///< draws made by this run (written problems and their redraws)
  std::uint64_t bytes = 0;   ///< bytes written (npz + xml)
  bool interrupted = false;  ///< stopped by `stop` before every problem was done
};

/// Checks the spec: UsageError on a bad value (no problems, a configuration twice, counts that
/// overflow or exceed kMaxDatasetProblems, bad splits or thread count, a variant out of range, one
/// that the style cannot draw without symbolic_only (engine/model/style_limits.hpp: one line), or
/// whose regime leaves a configuration no rule or no held-out pair).
void check_dataset_spec(const DatasetSpec& spec);
/// Checks the spec and creates the folders (InputError when the save dir cannot be created).
void prepare_dataset_dir(const DatasetSpec& spec);
/// Problem k of configuration `id` as the dataset `spec` holds it (its split from k, spec.val and
/// spec.test; `attempt` > 0 draws it again, as an acceptance test asks).
engine::Problem dataset_problem(const DatasetSpec& spec, engine::ConfigId id, std::uint64_t k,
                                std::uint64_t attempt = 0);
/// The same, with the checks a run makes of its spec first (the variant in range, and a rule left
/// at k's split): what `rave.generate` returns (UsageError naming the defect).
engine::Problem checked_dataset_problem(const DatasetSpec& spec, engine::ConfigId id,
                                        std::uint64_t k, std::uint64_t attempt = 0);
/// Generates and writes the dataset. Errors propagate as InputError (e.g. a full disk, a folder
/// another writer holds, a manifest that differs from the run) after the other workers stop; no
/// partial file is ever left behind.
DatasetReport write_dataset(const DatasetSpec& spec, const ProgressFn& progress = {});

}  // namespace rave::jobs
