#pragma once
// Fills a ProblemCache in the background with the CPU time nobody else wants. A rank of a
// data-parallel run visits a different part of the training files every epoch (each global batch
// is split by position), so its own cache would take several epochs to hold what it needs, and
// every miss is a decode on the rank's own core. The warmer decodes the files its cache lacks on
// a thread of the lowest scheduling class (SCHED_IDLE, else nice 19), which runs only while the
// core would otherwise idle: while the rank waits for the others at the step's barrier, for
// instance. Batches do not depend on what is cached, so the run is the same with or without it.
//
//   ProblemCache cache(files.size(), options, budget);
//   CacheWarmer warmer(files, options, cache);   // stops and joins when destroyed
#include <atomic>
#include <span>
#include <thread>
#include <vector>

#include "neural/dataset.hpp"
#include "neural/pipeline.hpp"

namespace rave::neural {

class CacheWarmer {
 public:
  /// Starts decoding files [0, cache.capacity()) that `cache` lacks, in list order. `files` and
  /// `cache` must outlive the warmer. A file that fails to decode is left to the pipeline, which
  /// reports it where a batch needs it.
  CacheWarmer(std::span<const DataFile> files, const PipelineOptions& options, ProblemCache& cache);
  ~CacheWarmer();
  CacheWarmer(const CacheWarmer&) = delete;
  CacheWarmer& operator=(const CacheWarmer&) = delete;

  /// Waits until every file has been tried (for tests and benchmarks).
  void wait();
  /// Whether the thread got a background scheduling class (else it did nothing).
  bool background() const { return background_.load(); }

 private:
  void run(std::span<const DataFile> files, PipelineOptions options, ProblemCache& cache);

  std::atomic<bool> stop_{false};
  std::atomic<bool> background_{false};
  std::thread worker_;
};

/// Lowers the calling thread to the idle scheduling class (or nice 19); false if neither took.
bool lower_to_background();

}  // namespace rave::neural
