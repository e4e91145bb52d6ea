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
//                      epoch);
//   while (auto batch = stream.next()) train_step(*batch);  // rethrows a bad file's InputError
#include <array>
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
  bool hflip = false;  ///< mirror a problem's panels with probability 1/2, from (seed, epoch, file)
  int prefetch = 4;    ///< finished batches kept ready ahead of the consumer
  int rank = 0;        ///< this process's share of the files (data-parallel runs)
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

/// A decoded problem without its panels, as a ProblemCache keeps it: trivially copyable, so that
/// it can live in memory that several processes map.
struct KeptFields {
  std::int64_t target = 0;
  std::array<float, 9> meta_target{};
  std::array<float, 21> meta_structure{};
  DrtInput drt;
  engine::ConfigId config = engine::ConfigId::kCenterSingle;
};

/// A problem in a ProblemCache: its fields and its 16 x S x S panels, in the cache's memory.
struct KeptProblem {
  const KeptFields* fields = nullptr;
  std::span<const std::uint8_t> image;
  explicit operator bool() const { return fields != nullptr; }
  /// A copy that owns its panels.
  LoadedProblem copy() const;
};

/// Memory for a ProblemCache: `bytes` zero-filled bytes at `data`, alive while `owner` is.
struct CacheMemory {
  std::byte* data = nullptr;
  std::size_t bytes = 0;
  std::shared_ptr<void> owner;
};

/// Decoded problems kept from one epoch to the next, so that the pipeline only copies memory for
/// them after the first epoch. Owned by the caller, one per file list and PipelineOptions. It keeps
/// the first files of the list (by position) that fit in `budget_bytes`, and the rest is decoded
/// from disk every epoch. Its slots are in one block: memory of its own, or memory the ranks of a
/// data-parallel run share, so that in the second epoch a rank finds the problems another rank
/// decoded in the first (its slice of each global batch changes from epoch to epoch). A slot is
/// claimed, written and then published with release order, so a rank reads only whole problems;
/// within an epoch the ranks visit disjoint files, so no slot is written twice. Copies share the
/// memory.
class ProblemCache {
 public:
  /// A cache in memory of its own (pages are taken as problems are kept).
  ProblemCache(std::size_t files, const PipelineOptions& options, std::size_t budget_bytes);
  /// A cache in `memory`, of at least memory_bytes(files, options, budget_bytes): every cache
  /// over the same memory must be made with the same arguments.
  ProblemCache(std::size_t files, const PipelineOptions& options, std::size_t budget_bytes,
               CacheMemory memory);
  /// Whether any problem is kept.
  bool enabled() const { return capacity_ > 0; }
  /// How many problems (the first positions) are kept at most.
  std::size_t capacity() const { return capacity_; }
  /// Bytes one decoded problem takes for `options`.
  static std::size_t problem_bytes(const PipelineOptions& options);
  /// Bytes of memory a cache made with these arguments needs.
  static std::size_t memory_bytes(std::size_t files, const PipelineOptions& options,
                                  std::size_t budget_bytes);
  /// The problem at file position `i` when kept (false otherwise).
  KeptProblem find(std::size_t i) const;
  /// Keeps problem `i` when i < capacity() and the slot is free.
  void store(std::size_t i, const LoadedProblem& problem);
  /// Problems kept so far.
  std::size_t size() const;

 private:
  std::byte* slot(std::size_t i) const { return memory_.data + i * slot_bytes_; }
  std::size_t capacity_ = 0, slot_bytes_ = 0, image_bytes_ = 0;
  CacheMemory memory_;
};

/// The order an epoch visits `n` files: 0..n-1, or a permutation that depends on (seed, epoch)
/// only.
std::vector<std::size_t> epoch_order(std::size_t n, std::uint64_t seed, int epoch, bool shuffle);
/// Whether file `file` is mirrored in `epoch` under PipelineOptions::hflip: a function of (seed,
/// epoch, file) only, true for about half the files.
bool mirrored(std::uint64_t seed, int epoch, std::size_t file);
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
