#pragma once
// Parallel loops whose output does not depend on the thread count (oneTBB underneath): work runs on
// a private arena of `threads` workers; results are handed back in index order.
//
//   std::vector<Result> slots(kChunk);
//   run_ordered(files.size(), threads,
//               [&](std::size_t i) { slots[i % kChunk] = solve(files[i]); },   // any worker
//               [&](std::size_t i) { print(slots[i % kChunk]); });             // in order
//   parallel_for_index(n, threads, [&](std::size_t i) { write(i); });          // order-free work
#include <cstddef>
#include <functional>

namespace rave {

/// Work is handed out in chunks of this many items; results come back chunk by chunk.
inline constexpr std::size_t kChunk = 512;

/// Runs `work(i)` for every i in [0, n) on `threads` workers, chunk by chunk, and `emit(i)` in
/// index order on the calling thread after each chunk. `work` may keep per-item state in slot i %
/// kChunk.
void run_ordered(std::size_t n, int threads, const std::function<void(std::size_t)>& work,
                 const std::function<void(std::size_t)>& emit);

/// Runs `work(i)` for every i in [0, n) on `threads` workers, one item per task, in no set order.
/// An exception from `work` stops the loop and is rethrown on the calling thread.
void parallel_for_index(std::size_t n, int threads, const std::function<void(std::size_t)>& work);

}  // namespace rave
