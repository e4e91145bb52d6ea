#include "neural/internal/shared_memory.hpp"

#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <thread>
#include <utility>

#include "common/error.hpp"

namespace rave::neural::internal {
namespace {

using Clock = std::chrono::steady_clock;

constexpr std::uint32_t kMagic = 0x52415645;  // "RAVE"
constexpr std::size_t kHeaderBytes = 4096;
constexpr auto kSpinTime = std::chrono::microseconds(50);
constexpr auto kSleepSlice = std::chrono::milliseconds(20);
constexpr auto kPeerCheckEvery = std::chrono::milliseconds(100);

// The control block at the start of the segment; each counter on its own cache line.
struct Header {
  std::uint32_t magic;
  std::uint32_t world_size;
  std::uint64_t chunk_bytes;
  alignas(64) std::atomic<std::uint32_t> arrived;  // barrier arrivals since the start, mod 2^32
  alignas(64) std::atomic<std::uint32_t> waiters;  // ranks asleep on `arrived`
  alignas(64) std::atomic<std::uint32_t> failed;   // a rank gave up: the others stop too
};
static_assert(sizeof(Header) <= kHeaderBytes);
static_assert(std::atomic<std::uint32_t>::is_always_lock_free);

// Bytes of one rank's slot in one buffer: about 8 MiB for the two buffers of all ranks, between
// 64 KiB and 1 MiB a slot, whole pages.
std::size_t chunk_bytes_for(int world_size) {
  const std::size_t share = (std::size_t{8} << 20) / (2 * static_cast<std::size_t>(world_size));
  return std::clamp<std::size_t>(share, std::size_t{64} << 10, std::size_t{1} << 20) &
         ~std::size_t{4095};
}

std::size_t segment_bytes(int world_size, std::size_t chunk_bytes) {
  return kHeaderBytes + 2 * static_cast<std::size_t>(world_size) * chunk_bytes;
}

[[noreturn]] void fail(const std::string& what, int error) {
  throw Error("shared memory " + what + ": " + std::strerror(error));
}

std::uint32_t* futex_word(std::atomic<std::uint32_t>& a) {
  return reinterpret_cast<std::uint32_t*>(&a);
}

void futex_wait(std::atomic<std::uint32_t>& word, std::uint32_t expected,
                std::chrono::nanoseconds timeout) {
  const timespec ts{static_cast<time_t>(timeout.count() / 1'000'000'000),
                    static_cast<long>(timeout.count() % 1'000'000'000)};
  ::syscall(SYS_futex, futex_word(word), FUTEX_WAIT, expected, &ts, nullptr, 0);
}

void futex_wake_all(std::atomic<std::uint32_t>& word) {
  ::syscall(SYS_futex, futex_word(word), FUTEX_WAKE, 0x7fffffff, nullptr, nullptr, 0);
}

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Whether process `pid` still runs: it exists and is not a zombie (a rank killed under a launcher
// that has not reaped it yet).
bool running(pid_t pid) {
  if (::kill(pid, 0) != 0 && errno == ESRCH) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');  // the state follows the command name in parentheses
  return close == std::string::npos || close + 2 >= text.size() ||
         (text[close + 2] != 'Z' && text[close + 2] != 'X');
}

// "rank R (pid P) is gone" for the first rank other than `self` whose process has ended, else "".
std::string gone_rank(const std::vector<pid_t>& pids, int self) {
  for (std::size_t r = 0; r < pids.size(); ++r)
    if (static_cast<int>(r) != self && !running(pids[r]))
      return "rank " + std::to_string(r) + " (pid " + std::to_string(pids[r]) + ") is gone";
  return {};
}

std::string first_line_of(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string link_of(const char* path) {
  std::error_code ec;
  return std::filesystem::read_symlink(path, ec).string();
}

// Copies between the arrays of `parts`, taken as one, and contiguous chunks, in order.
template <typename T>
class Cursor {
 public:
  explicit Cursor(std::span<const Span<T>> parts) : parts_(parts) {}
  void gather(T* chunk, std::size_t n, T scale) {
    walk(n, [&](T* part, std::size_t k) {
      if (scale == T{1})
        std::memcpy(chunk, part, k * sizeof(T));
      else
        for (std::size_t i = 0; i < k; ++i) chunk[i] = part[i] * scale;
      chunk += k;
    });
  }
  void skip(std::size_t n) {
    walk(n, [](T*, std::size_t) {});
  }
  void scatter(const T* chunk, std::size_t n) {
    walk(n, [&](T* part, std::size_t k) { std::memcpy(part, chunk, k * sizeof(T)), chunk += k; });
  }

 private:
  template <typename Fn>
  void walk(std::size_t n, Fn fn) {
    while (n > 0) {
      const auto& part = parts_[index_];
      const std::size_t k = std::min(n, part.size - offset_);
      if (k > 0) fn(part.data + offset_, k);
      n -= k;
      offset_ += k;
      if (offset_ == part.size) ++index_, offset_ = 0;
    }
  }
  std::span<const Span<T>> parts_;
  std::size_t index_ = 0, offset_ = 0;
};

}  // namespace

struct SharedMemoryGroup::State {
  int rank = 0, world_size = 1;
  std::byte* base = nullptr;
  std::size_t bytes = 0;
  std::size_t chunk_bytes = 0;
  std::uint32_t barriers = 0;  // barriers this rank has entered
  unsigned buffer = 0;         // the buffer of the next chunk
  std::vector<pid_t> pids;
  std::chrono::milliseconds timeout{0};

  Header& header() { return *reinterpret_cast<Header*>(base); }
  template <typename T>
  T* slot(int r) {
    const auto index = static_cast<std::size_t>(buffer) * static_cast<std::size_t>(world_size) +
                       static_cast<std::size_t>(r);
    return reinterpret_cast<T*>(base + kHeaderBytes + index * chunk_bytes);
  }
  ~State() {
    if (base) ::munmap(base, bytes);
  }
};

SharedMemoryGroup::SharedMemoryGroup(std::unique_ptr<State> state) : state_(std::move(state)) {}
SharedMemoryGroup::SharedMemoryGroup(SharedMemoryGroup&&) noexcept = default;
SharedMemoryGroup& SharedMemoryGroup::operator=(SharedMemoryGroup&&) noexcept = default;
SharedMemoryGroup::~SharedMemoryGroup() = default;

int SharedMemoryGroup::rank() const { return state_->rank; }
int SharedMemoryGroup::size() const { return state_->world_size; }

namespace {

// Creates and maps `bytes` under `name` with every page reserved, so a full /dev/shm is an error
// here and not a SIGBUS at the first write.
std::byte* map_new(const std::string& name, std::size_t bytes) {
  const int fd = ::shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd < 0) fail(name, errno);
  const int reserved = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes));
  void* map = reserved == 0 ? ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                            : MAP_FAILED;
  const int error = reserved ? reserved : errno;
  ::close(fd);
  if (map == MAP_FAILED) {
    ::shm_unlink(name.c_str());
    fail(name + " (" + std::to_string(bytes >> 10) + " KiB)", error);
  }
  return static_cast<std::byte*>(map);
}

// Maps what map_new made under `name`, which must be `bytes` long.
std::byte* map_existing(const std::string& name, std::size_t bytes) {
  const int fd = ::shm_open(name.c_str(), O_RDWR, 0600);
  if (fd < 0) fail(name, errno);
  struct stat st {};
  const bool sized = ::fstat(fd, &st) == 0 && static_cast<std::size_t>(st.st_size) == bytes;
  void* map =
      sized ? ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
  const int error = sized ? errno : EINVAL;
  ::close(fd);
  if (map == MAP_FAILED) fail(name, error);
  return static_cast<std::byte*>(map);
}

}  // namespace

SharedMemoryGroup SharedMemoryGroup::create(int world_size, const std::string& name) {
  auto s = std::make_unique<State>();
  s->world_size = world_size;
  s->chunk_bytes = chunk_bytes_for(world_size);
  s->bytes = segment_bytes(world_size, s->chunk_bytes);
  s->base = map_new(name, s->bytes);
  auto* h = new (s->base) Header{};
  h->world_size = static_cast<std::uint32_t>(world_size);
  h->chunk_bytes = s->chunk_bytes;
  h->magic = kMagic;
  return SharedMemoryGroup(std::move(s));
}

SharedMemoryGroup SharedMemoryGroup::open(int rank, int world_size, const std::string& name) {
  auto s = std::make_unique<State>();
  s->rank = rank;
  s->world_size = world_size;
  s->chunk_bytes = chunk_bytes_for(world_size);
  s->bytes = segment_bytes(world_size, s->chunk_bytes);
  s->base = map_existing(name, s->bytes);
  const Header& h = s->header();
  if (h.magic != kMagic || h.world_size != static_cast<std::uint32_t>(world_size) ||
      h.chunk_bytes != s->chunk_bytes)
    fail(name + " (not this run's segment)", EINVAL);
  return SharedMemoryGroup(std::move(s));
}

SharedRegion SharedRegion::create(const std::string& name, std::size_t bytes) {
  return SharedRegion(map_new(name, bytes), bytes);
}
SharedRegion SharedRegion::open(const std::string& name, std::size_t bytes) {
  return SharedRegion(map_existing(name, bytes), bytes);
}
SharedRegion::SharedRegion(SharedRegion&& o) noexcept
    : data_(std::exchange(o.data_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
SharedRegion& SharedRegion::operator=(SharedRegion&& o) noexcept {
  if (this != &o) {
    if (data_) ::munmap(data_, bytes_);
    data_ = std::exchange(o.data_, nullptr);
    bytes_ = std::exchange(o.bytes_, 0);
  }
  return *this;
}
SharedRegion::~SharedRegion() {
  if (data_) ::munmap(data_, bytes_);
}

void SharedMemoryGroup::unlink(const std::string& name) { ::shm_unlink(name.c_str()); }

std::string SharedMemoryGroup::unique_name() {
  static std::atomic<unsigned> calls{0};
  const auto now = Clock::now().time_since_epoch().count();
  return "/rave-" + std::to_string(::getpid()) + "-" + std::to_string(calls++) + "-" +
         std::to_string(static_cast<unsigned long long>(now) % 1'000'000'007ULL);
}

void SharedMemoryGroup::start(std::vector<pid_t> pids, std::chrono::milliseconds timeout) {
  state_->pids = std::move(pids);
  state_->timeout = timeout;
}

void SharedMemoryGroup::barrier() {
  State& s = *state_;
  Header& h = s.header();
  const std::uint32_t target = ++s.barriers * static_cast<std::uint32_t>(s.world_size);
  // Ranks are at most one barrier apart, so "reached" is a signed distance on the wrapped count.
  const auto reached = [&] {
    return static_cast<std::int32_t>(h.arrived.load(std::memory_order_acquire) - target) >= 0;
  };
  if (h.arrived.fetch_add(1) + 1 == target) {
    if (h.waiters.load() != 0) futex_wake_all(h.arrived);
    return;
  }
  const auto begin = Clock::now();
  while (Clock::now() - begin < kSpinTime)
    for (int i = 0; i < 64; ++i) {
      if (reached()) return;
      cpu_relax();
    }
  auto next_check = Clock::now() + kPeerCheckEvery;
  for (;;) {
    h.waiters.fetch_add(1);
    const std::uint32_t seen = h.arrived.load();
    if (!reached() && h.failed.load() == 0) futex_wait(h.arrived, seen, kSleepSlice);
    h.waiters.fetch_sub(1);
    if (reached()) return;
    const auto now = Clock::now();
    std::string why = h.failed.load() != 0 ? "another rank stopped" : "";
    if (why.empty() && now >= next_check) {
      why = gone_rank(s.pids, s.rank);
      next_check = now + kPeerCheckEvery;
    }
    if (why.empty() && now - begin > s.timeout)
      why = "no answer from the other ranks in " +
            std::to_string(std::chrono::duration_cast<std::chrono::seconds>(s.timeout).count()) +
            " s";
    if (!why.empty()) {
      h.failed.store(1);
      futex_wake_all(h.arrived);
      throw Error(why);
    }
  }
}

namespace {

// Rank `me`'s share [lo, hi) of a chunk of n elements, in whole cache lines so that no two ranks
// write one line.
std::pair<std::size_t, std::size_t> share_of(std::size_t n, int ranks, int me) {
  const auto w = static_cast<std::size_t>(ranks), r = static_cast<std::size_t>(me);
  const std::size_t share = ((n + w - 1) / w + 15) & ~std::size_t{15};
  const std::size_t lo = std::min(n, r * share);
  return {lo, std::min(n, lo + share)};
}

template <typename T>
std::size_t total_size(std::span<const Span<T>> parts) {
  std::size_t total = 0;
  for (const auto& p : parts) total += p.size;
  return total;
}

struct KeepSums {
  template <typename T>
  void operator()(std::size_t, T*, std::size_t) const {}
};

}  // namespace

template <typename T, typename Update>
void SharedMemoryGroup::reduce(std::span<const Span<T>> inputs, std::span<const Span<T>> outputs,
                               T scale, const Update& update) {
  State& s = *state_;
  const std::size_t total = total_size(inputs), per_chunk = s.chunk_bytes / sizeof(T);
  Cursor<T> in(inputs), out(outputs);
  for (std::size_t begin = 0; begin < total; begin += per_chunk) {
    const std::size_t n = std::min(per_chunk, total - begin);
    in.gather(s.slot<T>(s.rank), n, scale);
    barrier();
    const auto [lo, hi] = share_of(n, s.world_size, s.rank);
    T* sum = s.slot<T>(0);
    for (int r = 1; r < s.world_size; ++r) {
      const T* other = s.slot<T>(r);
      for (std::size_t i = lo; i < hi; ++i) sum[i] += other[i];
    }
    update(begin + lo, sum + lo, hi - lo);
    barrier();
    out.scatter(sum, n);
    s.buffer ^= 1u;
  }
}

void SharedMemoryGroup::all_reduce_sum(std::span<const Span<float>> parts, double scale) {
  reduce(parts, parts, static_cast<float>(scale), KeepSums{});
}
void SharedMemoryGroup::all_reduce_sum(std::span<const Span<double>> parts, double scale) {
  reduce(parts, parts, scale, KeepSums{});
}

void SharedMemoryGroup::reduce_update(std::span<const Span<float>> inputs,
                                      std::span<const Span<float>> outputs, double scale,
                                      const ShareUpdate& update) {
  RAVE_CHECK(total_size(inputs) == total_size(outputs), "reduce_update: sizes differ");
  reduce(inputs, outputs, static_cast<float>(scale), update);
}

// One barrier a chunk is enough: a rank writes a buffer again only two chunks later, after a
// barrier that every rank reached having read it.
void SharedMemoryGroup::gather_shares(std::span<const Span<float>> parts) {
  State& s = *state_;
  const std::size_t total = total_size(parts), per_chunk = s.chunk_bytes / sizeof(float);
  Cursor<float> skip(parts), out(parts);
  for (std::size_t begin = 0; begin < total; begin += per_chunk) {
    const std::size_t n = std::min(per_chunk, total - begin);
    const auto [lo, hi] = share_of(n, s.world_size, s.rank);
    float* chunk = s.slot<float>(0);
    skip.skip(lo);
    skip.gather(chunk + lo, hi - lo, 1.0f);
    skip.skip(n - hi);
    barrier();
    out.scatter(chunk, n);
    s.buffer ^= 1u;
  }
}

std::string shared_memory_host_key() {
  const std::string boot = first_line_of("/proc/sys/kernel/random/boot_id");
  const std::string mounts = link_of("/proc/self/ns/mnt"), pids = link_of("/proc/self/ns/pid");
  if (boot.empty() || mounts.empty() || pids.empty()) return {};
  return boot + " " + mounts + " " + pids;
}

}  // namespace rave::neural::internal
