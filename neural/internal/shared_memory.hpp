#pragma once
// Sums over the ranks of one machine through a shared-memory segment, for the CPU collectives of
// collective.hpp (why not Gloo's TCP loopback: bench/README.md). Rank 0 creates the segment and the others map
// it by name (the names travel through the run's rendezvous store, collective.cpp); it is
// unlinked as soon as all have mapped it, so nothing is left in /dev/shm when a process dies.
// Torch-free.
//
// A sum runs in chunks through two alternating buffers of one slot per rank: every rank copies its
// chunk into its slot, a barrier, every rank adds up its share of the chunk over the slots (in rank
// order, so the result is the same on every rank and for every chunking) into slot 0, a barrier,
// every rank copies slot 0 out. reduce_update is that sum with work of the caller's on each rank's
// share in between (ZeRO stage 1: each rank steps Adam on its share of the parameters, and the
// ranks receive one another's new values in place of the sums). A barrier spins briefly, then
// sleeps on a futex; while it waits it checks that the other ranks' processes are alive, so a
// killed rank stops the others in well under a second rather than at the timeout.
//
//   auto segment = SharedMemoryGroup::create(world_size, name);           // rank 0
//   auto segment = SharedMemoryGroup::open(rank, world_size, name);       // the others
//   segment.start(pids, timeout);                 // once every rank has mapped it
//   segment.all_reduce_sum(std::span<const Span<float>>{...});
//
// A SharedRegion is plain shared memory made and mapped the same way, for data the ranks share
// rather than sum (the decoded training problems, pipeline.hpp's ProblemCache).
#include <sys/types.h>
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace rave::neural::internal {

/// One array taking part in a sum: `size` elements at `data`, replaced by their sums.
template <typename T>
struct Span {
  T* data;
  std::size_t size;
};

class SharedMemoryGroup {
 public:
  /// Creates and maps a segment for `world_size` ranks under `name` ("/rave-..."); Error with
  /// the system's reason when the shared memory cannot be had.
  static SharedMemoryGroup create(int world_size, const std::string& name);
  /// Maps the segment rank 0 created; Error when it cannot.
  static SharedMemoryGroup open(int rank, int world_size, const std::string& name);
  /// Removes the name (the mappings stay): rank 0, once every rank has mapped the segment.
  static void unlink(const std::string& name);
  /// The name rank 0 gives the segment of a run: unique per process and call.
  static std::string unique_name();

  SharedMemoryGroup(SharedMemoryGroup&&) noexcept;
  SharedMemoryGroup& operator=(SharedMemoryGroup&&) noexcept;
  ~SharedMemoryGroup();

  /// The process of every rank (by rank), watched while a barrier waits, and how long a barrier
  /// may wait in all.
  void start(std::vector<pid_t> pids, std::chrono::milliseconds timeout);

  /// Replaces the elements of `parts`, taken as one array, by the sums over the ranks of each
  /// rank's elements times its `scale` (every rank passes the same sizes; scale 1 copies). Throws
  /// Error saying which rank's process is gone, or that a barrier timed out; the group is unusable
  /// after that.
  void all_reduce_sum(std::span<const Span<float>> parts, double scale = 1.0);
  void all_reduce_sum(std::span<const Span<double>> parts, double scale = 1.0);

  /// Called with elements [offset, offset + n) of the arrays taken as one (this rank's share of a
  /// chunk) and their sums over the ranks, which it overwrites with the values all ranks receive.
  using ShareUpdate = std::function<void(std::size_t offset, float* sums, std::size_t n)>;
  /// Sums `inputs` over the ranks as all_reduce_sum does (each rank's times its `scale`), but
  /// hands only this rank's share of each sum to `update`, and writes every rank's updated values
  /// into `outputs` (the same sizes, other memory). Which elements are a rank's share depends only
  /// on the total size and the world size, so it is the same at every call.
  void reduce_update(std::span<const Span<float>> inputs, std::span<const Span<float>> outputs,
                     double scale, const ShareUpdate& update);
  /// Gives every rank each rank's share of `parts` (the elements reduce_update hands that rank
  /// for arrays of this total size), overwriting the rest.
  void gather_shares(std::span<const Span<float>> parts);

  int rank() const;
  int size() const;

 private:
  struct State;
  explicit SharedMemoryGroup(std::unique_ptr<State> state);
  template <typename T, typename Update>
  void reduce(std::span<const Span<T>> inputs, std::span<const Span<T>> outputs, T scale,
              const Update& update);
  void barrier();
  std::unique_ptr<State> state_;
};

/// Zero-filled memory that the ranks of one machine map under one name, as a SharedMemoryGroup's
/// segment is made, mapped and unlinked (collective.hpp hands it out). Torch-free.
class SharedRegion {
 public:
  /// Creates `bytes` bytes under `name`, all pages reserved; Error with the system's reason
  /// (a /dev/shm too small for it, say).
  static SharedRegion create(const std::string& name, std::size_t bytes);
  /// Maps what create made under `name`; Error when it is missing or not `bytes` long.
  static SharedRegion open(const std::string& name, std::size_t bytes);
  SharedRegion(SharedRegion&&) noexcept;
  SharedRegion& operator=(SharedRegion&&) noexcept;
  ~SharedRegion();

  std::byte* data() const { return data_; }
  std::size_t size() const { return bytes_; }

 private:
  SharedRegion(std::byte* data, std::size_t bytes) : data_(data), bytes_(bytes) {}
  std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
};

/// What must be equal for two processes to share a segment: the boot (boot_id), and the mount and
/// pid namespaces (/dev/shm and process ids must mean the same). Empty when unreadable.
std::string shared_memory_host_key();

}  // namespace rave::neural::internal
