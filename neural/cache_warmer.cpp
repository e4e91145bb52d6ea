#include "neural/cache_warmer.hpp"

#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/error.hpp"
#include "engine/model/image.hpp"

namespace rave::neural {

bool lower_to_background() {
#ifdef SCHED_IDLE
  sched_param none{};
  if (::sched_setscheduler(0, SCHED_IDLE, &none) == 0) return true;  // Linux: this thread only
#endif
  const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
  return ::setpriority(PRIO_PROCESS, tid, 19) == 0;
}

CacheWarmer::CacheWarmer(std::span<const DataFile> files, const PipelineOptions& options,
                         ProblemCache& cache)
    : worker_([this, files, options, &cache] { run(files, options, cache); }) {}

CacheWarmer::~CacheWarmer() {
  stop_ = true;
  wait();
}

void CacheWarmer::wait() {
  if (worker_.joinable()) worker_.join();
}

void CacheWarmer::run(std::span<const DataFile> files, PipelineOptions options,
                      ProblemCache& cache) {
  if (!lower_to_background()) return;  // at normal priority it would compete with the step
  background_ = true;
  const PanelResizer resize(engine::kPanelSize, options.image_size);
  for (std::size_t i = 0; i < cache.capacity() && i < files.size() && !stop_.load(); ++i) {
    if (cache.find(i)) continue;
    try {
      cache.store(i, load_problem(files[i], resize, options.candidates_only));
    } catch (const Error&) {
      // Left uncached: the pipeline decodes it again and raises the error with its context.
    } catch (...) {
      return;  // out of memory, say: warming is optional
    }
  }
}

}  // namespace rave::neural
