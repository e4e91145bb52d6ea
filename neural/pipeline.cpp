#include "neural/pipeline.hpp"

#include <oneapi/tbb/parallel_pipeline.h>
#include <oneapi/tbb/task_arena.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <mutex>
#include <new>
#include <span>
#include <type_traits>
#include <variant>

#include "common/error.hpp"
#include "common/random.hpp"
#include "engine/model/image.hpp"

namespace rave::neural {
namespace {

constexpr std::uint64_t kShuffleSalt = 0x53485546464c45;  // "SHUFFLE"
constexpr std::uint64_t kCandidateSalt = 0x43414e444944;  // "CANDID"
constexpr std::uint64_t kFlipSalt = 0x464c4950;           // "FLIP"

// The candidate order of file `file` in `epoch`: a function of (seed, epoch, file) only.
std::array<int, 8> candidate_order(std::uint64_t seed, int epoch, std::size_t file) {
  Rng rng(mix64(seed ^ kCandidateSalt) ^ mix64(static_cast<std::uint64_t>(epoch)) ^
          mix64(mix64(static_cast<std::uint64_t>(file))));
  std::array<int, 8> order{0, 1, 2, 3, 4, 5, 6, 7};
  rng.shuffle(std::span<int>(order));
  return order;
}

// A problem on its way from the decoding stage to the batch: the item's index in the visiting
// order, and the problem, decoded here or `kept` in the cache.
struct Decoded {
  std::size_t first = 0;
  KeptProblem kept;
  LoadedProblem problem;
};

KeptFields fields_of(const LoadedProblem& p) {
  return {p.target, p.meta_target, p.meta_structure, p.drt, p.config};
}

// An empty batch with room for a full one, so appending never moves the images.
void start_batch(HostBatch& b, const PipelineOptions& o) {
  const auto n = static_cast<std::size_t>(o.batch_size),
             side = static_cast<std::size_t>(o.image_size);
  b.image_size = o.image_size;
  b.images.reserve(n * 16 * side * side);  // 16 panels
}

// Appends one problem to a batch under construction.
void append(HostBatch& b, std::span<const std::uint8_t> image, const KeptFields& p,
            std::size_t position) {
  b.images.insert(b.images.end(), image.begin(), image.end());
  b.targets.push_back(p.target);
  b.meta_target.insert(b.meta_target.end(), p.meta_target.begin(), p.meta_target.end());
  b.meta_structure.insert(b.meta_structure.end(), p.meta_structure.begin(), p.meta_structure.end());
  b.labels.insert(b.labels.end(), p.drt.labels.begin(), p.drt.labels.end());
  b.indicator.push_back(p.drt.indicator);
  b.configs.push_back(engine::config_index(p.config));
  b.positions.push_back(position);
  ++b.size;
}

}  // namespace

// What the worker thread hands to the consumer: a batch, the end of the epoch, or an error.
struct BatchStream::Shared {
  using Item = std::variant<HostBatch, std::monostate, std::exception_ptr>;
  std::vector<DataFile> files;
  std::vector<std::size_t> order;  // file positions this rank visits, in order
  std::vector<std::int64_t> global_sizes;
  PipelineOptions options;
  PanelResizer resize;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Item> queue;
  bool closed = false;            // the consumer is gone: drop everything
  std::atomic<bool> stop{false};  // ask the source filter to stop

  int epoch;
  ProblemCache* cache;

  Shared(std::span<const DataFile> f, const PipelineOptions& o, int e, ProblemCache* c)
      : files(f.begin(), f.end()),
        options(o),
        resize(engine::kPanelSize, o.image_size),
        epoch(e),
        cache(c) {
    RankShare share = rank_share(epoch_order(f.size(), o.seed, e, o.shuffle), o);
    order = std::move(share.files);
    global_sizes = std::move(share.global_sizes);
  }

  // Blocks while `prefetch` batches wait, unless `force` (end and error markers always fit).
  void push(Item item, bool force) {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] {
      return closed || force || queue.size() < static_cast<std::size_t>(options.prefetch);
    });
    if (closed) return;
    queue.push_back(std::move(item));
    changed.notify_all();
  }

  Item pop() {
    std::unique_lock lock(mutex);
    changed.wait(lock, [&] { return !queue.empty(); });
    Item item = std::move(queue.front());
    queue.pop_front();
    changed.notify_all();
    return item;
  }

  void run();

  // Item i of the visiting order, decoded (or found in the cache). A kept problem travels as a
  // pointer into the cache unless its candidates are permuted or its panels mirrored.
  Decoded decode_item(std::size_t i) {
    const std::size_t file = order[i];
    Decoded out{i, cache ? cache->find(file) : KeptProblem{}, {}};
    const bool mirror = options.hflip && mirrored(options.seed, epoch, file);
    if (out.kept && !options.shuffle_candidates && !mirror) return out;
    out.problem =
        out.kept ? out.kept.copy() : load_problem(files[file], resize, options.candidates_only);
    if (cache && !out.kept) cache->store(file, out.problem);
    if (options.shuffle_candidates)
      permute_candidates(out.problem, candidate_order(options.seed, epoch, file));
    if (mirror) mirror_panels(out.problem, options.image_size);
    out.kept = {};
    return out;
  }
};

// The pipeline: serial in-order source -> parallel decode -> serial in-order batching sink.
// Tokens in flight: 4 per worker (oneTBB's `square` example), enough to hide file latency.
void BatchStream::Shared::run() {
  namespace tbb = oneapi::tbb;
  std::size_t next = 0, batches = 0;
  HostBatch batch;
  const auto source = [&](tbb::flow_control& fc) -> std::size_t {
    if (next == order.size() || stop.load()) {
      fc.stop();
      return 0;
    }
    return next++;
  };
  const auto decode = [&](std::size_t i) { return decode_item(i); };
  const auto sink = [&](Decoded item) {
    if (batch.size == 0) start_batch(batch, options);
    if (item.kept)
      append(batch, item.kept.image, *item.kept.fields, order[item.first]);
    else
      append(batch, item.problem.image, fields_of(item.problem), order[item.first]);
    if (batch.size == options.batch_size || item.first + 1 == order.size()) {
      batch.global_size = global_sizes[batches++];
      push(std::exchange(batch, {}), false);
    }
  };
  tbb::task_arena arena(options.threads);
  arena.execute([&] {
    tbb::parallel_pipeline(
        static_cast<std::size_t>(4 * options.threads),
        tbb::make_filter<void, std::size_t>(tbb::filter_mode::serial_in_order, source) &
            tbb::make_filter<std::size_t, Decoded>(tbb::filter_mode::parallel, decode) &
            tbb::make_filter<Decoded, void>(tbb::filter_mode::serial_in_order, sink));
  });
}

bool mirrored(std::uint64_t seed, int epoch, std::size_t file) {
  Rng rng(mix64(seed ^ kFlipSalt) ^ mix64(static_cast<std::uint64_t>(epoch)) ^
          mix64(mix64(static_cast<std::uint64_t>(file))));
  return (rng.next() >> 63) != 0;
}

std::vector<std::size_t> epoch_order(std::size_t n, std::uint64_t seed, int epoch, bool shuffle) {
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  if (shuffle) {
    Rng rng(mix64(seed ^ kShuffleSalt) ^ mix64(static_cast<std::uint64_t>(epoch)));
    rng.shuffle(std::span<std::size_t>(order));
  }
  return order;
}

std::size_t batch_count(std::size_t n, int batch_size) {
  return (n + static_cast<std::size_t>(batch_size) - 1) / static_cast<std::size_t>(batch_size);
}

// Global batch g of m problems goes to the ranks in slices [r m / W, (r + 1) m / W).
RankShare rank_share(const std::vector<std::size_t>& order, const PipelineOptions& o) {
  const auto n = order.size(), world = static_cast<std::size_t>(o.world_size),
             rank = static_cast<std::size_t>(o.rank);
  const auto batch = static_cast<std::size_t>(o.batch_size);
  RankShare share;
  if (!o.split_global_batches) {
    share.files.assign(order.begin() + static_cast<std::ptrdiff_t>(rank * n / world),
                       order.begin() + static_cast<std::ptrdiff_t>((rank + 1) * n / world));
    for (std::size_t i = 0; i < share.files.size(); i += batch)
      share.global_sizes.push_back(
          static_cast<std::int64_t>(std::min(batch, share.files.size() - i)));
    return share;
  }
  for (std::size_t start = 0; start < n; start += batch * world) {
    const std::size_t m = std::min(batch * world, n - start);
    if (m < world) break;
    share.files.insert(share.files.end(),
                       order.begin() + static_cast<std::ptrdiff_t>(start + rank * m / world),
                       order.begin() + static_cast<std::ptrdiff_t>(start + (rank + 1) * m / world));
    share.global_sizes.push_back(static_cast<std::int64_t>(m));
  }
  return share;
}

namespace {

// A slot: its state, the fields, then the panels; whole cache lines.
enum SlotState : std::uint32_t { kEmpty = 0, kWriting = 1, kKept = 2 };
constexpr std::size_t kFieldsAt = alignof(KeptFields) > 8 ? alignof(KeptFields) : 8;
constexpr std::size_t kImageAt = kFieldsAt + sizeof(KeptFields);
static_assert(std::is_trivially_copyable_v<KeptFields>);

std::atomic_ref<std::uint32_t> state_of(std::byte* slot) {
  return std::atomic_ref<std::uint32_t>(*reinterpret_cast<std::uint32_t*>(slot));
}

std::size_t image_bytes_of(const PipelineOptions& o) {
  const auto side = static_cast<std::size_t>(o.image_size);
  return 16 * side * side;
}

std::size_t capacity_of(std::size_t files, const PipelineOptions& o, std::size_t budget) {
  return std::min(files, budget / ProblemCache::problem_bytes(o));
}

// Zero-filled memory of this process for a cache, mapped apart from malloc: with the block from
// calloc, one-process CNN+DRT training took 3.0 M page faults in 3 epochs instead of 0.09 M and
// ran at 410 problems/s instead of 950 (rave-train runs with MALLOC_TOP_PAD_, faces/apps/forward.cpp,
// whose gain depends on how the heap is laid out; why the block upset it was not traced).
// Pages are taken as problems are kept.
CacheMemory own_memory(std::size_t bytes) {
  if (bytes == 0) return {};
  void* data = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (data == MAP_FAILED) throw std::bad_alloc();
  return {static_cast<std::byte*>(data), bytes,
          std::shared_ptr<void>(data, [bytes](void* p) { ::munmap(p, bytes); })};
}

}  // namespace

LoadedProblem KeptProblem::copy() const {
  LoadedProblem p;
  p.image.assign(image.begin(), image.end());
  p.target = fields->target;
  p.meta_target = fields->meta_target;
  p.meta_structure = fields->meta_structure;
  p.drt = fields->drt;
  p.config = fields->config;
  return p;
}

std::size_t ProblemCache::problem_bytes(const PipelineOptions& options) {
  return (kImageAt + image_bytes_of(options) + 63) & ~std::size_t{63};
}

std::size_t ProblemCache::memory_bytes(std::size_t files, const PipelineOptions& options,
                                       std::size_t budget_bytes) {
  return capacity_of(files, options, budget_bytes) * problem_bytes(options);
}

ProblemCache::ProblemCache(std::size_t files, const PipelineOptions& options,
                           std::size_t budget_bytes)
    : ProblemCache(files, options, budget_bytes,
                   own_memory(memory_bytes(files, options, budget_bytes))) {}

ProblemCache::ProblemCache(std::size_t files, const PipelineOptions& options,
                           std::size_t budget_bytes, CacheMemory memory)
    : capacity_(capacity_of(files, options, budget_bytes)),
      slot_bytes_(problem_bytes(options)),
      image_bytes_(image_bytes_of(options)),
      memory_(std::move(memory)) {
  RAVE_CHECK(memory_.bytes >= capacity_ * slot_bytes_, "ProblemCache: memory too small");
}

KeptProblem ProblemCache::find(std::size_t i) const {
  if (i >= capacity_ || state_of(slot(i)).load(std::memory_order_acquire) != kKept) return {};
  const std::byte* s = slot(i);
  return {reinterpret_cast<const KeptFields*>(s + kFieldsAt),
          {reinterpret_cast<const std::uint8_t*>(s + kImageAt), image_bytes_}};
}

void ProblemCache::store(std::size_t i, const LoadedProblem& problem) {
  if (i >= capacity_) return;
  RAVE_CHECK(problem.image.size() == image_bytes_, "ProblemCache: panels of another size");
  std::byte* s = slot(i);
  std::uint32_t empty = kEmpty;
  if (!state_of(s).compare_exchange_strong(empty, kWriting, std::memory_order_acquire)) return;
  const KeptFields fields = fields_of(problem);
  std::memcpy(s + kFieldsAt, &fields, sizeof fields);
  std::memcpy(s + kImageAt, problem.image.data(), image_bytes_);
  state_of(s).store(kKept, std::memory_order_release);
}

std::size_t ProblemCache::size() const {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < capacity_; ++i)
    kept += state_of(slot(i)).load(std::memory_order_acquire) == kKept;
  return kept;
}

BatchStream::BatchStream(std::span<const DataFile> files, const PipelineOptions& options, int epoch,
                         ProblemCache* cache) {
  RAVE_CHECK(options.batch_size >= 1 && options.threads >= 1 && options.prefetch >= 1,
             "bad PipelineOptions");
  RAVE_CHECK(options.world_size >= 1 && options.rank >= 0 && options.rank < options.world_size,
             "bad rank");
  shared_ = std::make_shared<Shared>(files, options, epoch, cache);
  batches_ = shared_->global_sizes.size();
  worker_ = std::thread([s = shared_] {
    try {
      s->run();
      s->push(std::monostate{}, true);
    } catch (...) {
      s->push(std::current_exception(), true);
    }
  });
}

BatchStream::~BatchStream() {
  shared_->stop = true;
  {
    std::lock_guard lock(shared_->mutex);
    shared_->closed = true;
    shared_->queue.clear();
  }
  shared_->changed.notify_all();
  worker_.join();
}

std::optional<HostBatch> BatchStream::next() {
  auto item = shared_->pop();
  if (auto* batch = std::get_if<HostBatch>(&item)) return std::move(*batch);
  if (auto* error = std::get_if<std::exception_ptr>(&item)) std::rethrow_exception(*error);
  shared_->push(std::monostate{}, true);  // keep answering "end" if asked again
  return std::nullopt;
}

}  // namespace rave::neural
