#include "common/parallel.hpp"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <algorithm>

#include "common/error.hpp"

namespace rave {

void run_ordered(std::size_t n, int threads, const std::function<void(std::size_t)>& work,
                 const std::function<void(std::size_t)>& emit) {
  RAVE_CHECK(threads >= 1, "at least one worker thread");
  tbb::task_arena arena(threads);
  for (std::size_t first = 0; first < n; first += kChunk) {
    const std::size_t last = std::min(n, first + kChunk);
    arena.execute([&] { tbb::parallel_for(first, last, [&](std::size_t i) { work(i); }); });
    for (std::size_t i = first; i < last; ++i) emit(i);
  }
}

void parallel_for_index(std::size_t n, int threads, const std::function<void(std::size_t)>& work) {
  RAVE_CHECK(threads >= 1, "at least one worker thread");
  tbb::task_arena arena(threads);
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, 1),
                      [&](const tbb::blocked_range<std::size_t>& range) {
                        for (std::size_t i = range.begin(); i != range.end(); ++i) work(i);
                      });
  });
}

}  // namespace rave
