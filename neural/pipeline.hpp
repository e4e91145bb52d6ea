#pragma once
// The training data pipeline (oneTBB parallel_pipeline, DESIGN.md "How data flows"): a serial
// in-order source of file positions, a parallel stage that reads, checks, resizes and parses each
// problem, and a serial in-order sink that packs batches. It runs on its own thread in a task arena
// of `threads` workers and stays `prefetch` batches ahead of the consumer. The visiting order is
// the identity or a permutation drawn from (seed, epoch) alone, and batches are packed in that
// order, so every batch is identical for any thread count. Torch-free: batches are plain buffers
// the trainer wraps into tensors without copying.
//
//   BatchStream stream(files, {.image_size = 80, .batch_size = 32, .threads = 2, .shuffle = true},
//   epoch); while (auto batch = stream.next()) train_step(*batch);      // rethrows a bad file's
//   InputError
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "neural/dataset.hpp"

namespace rave::neural {

/// How batches are made.
struct PipelineOptions {
  int image_size = 80;              ///< panel side after resizing (80 or 224 in the paper)
  int batch_size = 32;              ///< problems per batch; the last batch may be smaller
  int threads = 1;                  ///< TBB workers decoding in parallel (>= 1)
  std::uint64_t seed = 12345;       ///< shuffling seed
  bool shuffle = false;             ///< permute per epoch (train); identity order otherwise
  bool candidates_only = false;     ///< zero the 8 context panels (answer-set shortcut ablation)
  bool shuffle_candidates = false;  ///< permute each problem's candidates, from (seed, epoch, file)
  int prefetch = 4;                 ///< finished batches kept ready ahead of the consumer
  int rank = 0;                     ///< this process's share of the files (data-parallel runs)
  int world_size = 1;
  /// Training: each global batch of batch_size x world_size problems is split among the ranks
  /// (rank r takes the r-th slice), so W ranks see what one process with the global batch sees.
  /// Otherwise (evaluation) each rank takes a contiguous 1/world_size of the list.
  bool split_global_batches = false;
};

/// A batch in host memory, laid out as the model tensors (row-major).
struct HostBatch {
  std::int64_t size = 0;               ///< problems in the batch
  std::int64_t image_size = 0;         ///< S
  std::vector<std::uint8_t> images;    ///< size x 16 x S x S, raw grey levels
  std::vector<std::int64_t> targets;   ///< size, 0..7
  std::vector<float> meta_target;      ///< size x 9
  std::vector<float> meta_structure;   ///< size x 21
  std::vector<std::int64_t> labels;    ///< size x 6, rows into kLabelNames, -1 empty
  std::vector<float> indicator;        ///< size
  std::vector<std::int64_t> configs;   ///< size, configuration index 0..6
  std::vector<std::size_t> positions;  ///< size, index of each problem in the file list
  std::int64_t global_size = 0;        ///< problems of the global batch this one is a slice of
  friend bool operator==(const HostBatch&, const HostBatch&) = default;
};

/// Decoded problems kept from one epoch to the next, so that the pipeline only copies memory for
/// them after the first epoch. Owned by the caller, one per file list and PipelineOptions. It keeps
/// the first files of the list (by position) that fit in `budget_bytes`, and the rest is decoded
/// from disk every epoch. The pipeline writes each slot at most once per epoch, from one worker,
/// and epochs do not overlap, so slots need no lock.
class ProblemCache {
 public:
  ProblemCache(std::size_t files, const PipelineOptions& options, std::size_t budget_bytes);
  /// Whether any problem is kept.
  bool enabled() const { return capacity_ > 0; }
  /// How many problems (the first positions) are kept at most.
  std::size_t capacity() const { return capacity_; }
  /// Bytes one decoded problem takes for `options`.
  static std::size_t problem_bytes(const PipelineOptions& options);
  /// The problem at file position `i` when kept.
  const LoadedProblem* find(std::size_t i) const;
  /// Keeps problem `i` when i < capacity().
  void store(std::size_t i, const LoadedProblem& problem);
  /// Problems kept so far.
  std::size_t size() const;

 private:
  std::size_t capacity_ = 0;
  std::vector<std::optional<LoadedProblem>> slots_;
};

/// The order an epoch visits `n` files: 0..n-1, or a permutation that depends on (seed, epoch)
/// only.
std::vector<std::size_t> epoch_order(std::size_t n, std::uint64_t seed, int epoch, bool shuffle);
/// Number of batches of an epoch over `n` files (the last partial batch is kept, as the reference).
std::size_t batch_count(std::size_t n, int batch_size);

/// One rank's visit of an epoch: the files (positions in the list) in order, and the size of the
/// global batch each of its batches belongs to.
struct RankShare {
  std::vector<std::size_t> files;
  std::vector<std::int64_t> global_sizes;  ///< one per batch
};
/// This rank's part of `order` under options (rank, world_size, batch_size, split_global_batches).
/// Splitting global batches, a last global batch smaller than world_size is left out (so no rank
/// is idle in a step); contiguous shards leave nothing out.
RankShare rank_share(const std::vector<std::size_t>& order, const PipelineOptions& options);

/// One epoch of batches, produced in the background.
class BatchStream {
 public:
  /// Starts decoding at once; `files` is copied. `cache` (optional, same files and options) serves
  /// problems decoded in earlier epochs and keeps the new ones.
  BatchStream(std::span<const DataFile> files, const PipelineOptions& options, int epoch,
              ProblemCache* cache = nullptr);
  /// Stops the pipeline (if still running) and waits for it.
  ~BatchStream();
  BatchStream(const BatchStream&) = delete;
  BatchStream& operator=(const BatchStream&) = delete;

  /// The next batch, or nullopt at the end of the epoch; rethrows the pipeline's first error.
  std::optional<HostBatch> next();
  /// Batches this epoch yields.
  std::size_t size() const { return batches_; }

 private:
  struct Shared;
  std::shared_ptr<Shared> shared_;
  std::size_t batches_ = 0;
  std::thread worker_;
};

}  // namespace rave::neural
