#pragma once
// Writing RAVEN datasets: folders and file names as the original (`<config>/RAVEN_<k>_<split>.npz`
// and `.xml`, split by k mod 10, docs/format.md#split-and-file-names), every problem from its own
// random stream, both files of a problem written atomically, in parallel on a TBB arena of
// `threads` workers. Output is byte-identical for any thread count; `resume` skips problems whose
// two files already exist.
//
//   DatasetSpec spec{.dir = "out", .configs = {ConfigId::kCenterSingle}, .num_samples = 10};
//   DatasetReport r = write_dataset(spec, [](const DatasetProgress& p) { ... });
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

namespace rave::engine {

/// What to generate and where.
struct DatasetSpec {
  std::filesystem::path dir;                 ///< save dir; one sub-folder per configuration
  std::vector<ConfigId> configs;             ///< empty means all seven
  std::uint64_t num_samples = 0;             ///< problems per configuration (> 0)
  std::uint64_t seed = 1234;
  int val = 2;                               ///< tenths of problems in val
  int test = 2;                              ///< tenths of problems in test
  AnswerStrategy answers = AnswerStrategy::kRaven;
  bool compress = false;                     ///< deflate the npz (numpy.savez_compressed)
  bool resume = false;                       ///< skip problems whose .npz and .xml both exist
  int threads = 1;                           ///< worker threads (>= 1)
};

/// Counters reported while writing (from worker threads, one call at a time).
struct DatasetProgress {
  std::uint64_t done = 0;      ///< problems written or skipped so far
  std::uint64_t total = 0;     ///< problems in the whole run
  std::uint64_t skipped = 0;   ///< problems skipped by resume
};
using ProgressFn = std::function<void(const DatasetProgress&)>;

/// The outcome of a run.
struct DatasetReport {
  std::uint64_t written = 0;
  std::uint64_t skipped = 0;
  std::uint64_t bytes = 0;     ///< bytes written (npz + xml)
};

/// Checks the spec (UsageError on a bad value) and creates the folders (InputError when the save
/// dir cannot be created or written).
void prepare_dataset_dir(const DatasetSpec& spec);
/// Generates and writes the dataset. Errors propagate as InputError (e.g. a full disk) after the
/// other workers stop; no partial file is ever left behind.
DatasetReport write_dataset(const DatasetSpec& spec, const ProgressFn& progress = {});

}  // namespace rave::engine
