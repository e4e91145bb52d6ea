#pragma once
// A c10d process group for data-parallel training (epoch_loop.cpp, sync batch norm, tests): the ranks
// meet through a TCPStore served by rank 0 at MASTER_ADDR:MASTER_PORT, then exchange tensors over
// Gloo (CPU tensors; CUDA tensors go through the host) or NCCL (CUDA, where the linked LibTorch and
// the build have it). Tensors travel in flat buckets of at most kBucketBytes, as
// DistributedDataParallel does. When every rank of a CPU run is on one machine, the sums of
// float32 and float64 tensors go through a shared-memory segment instead (shared_memory.hpp;
// RAVE_SHARED_MEMORY=0 keeps them on Gloo). Any failure of a peer becomes one DistributedError
// line.
//
//   Collective group(env, torch::kCPU);
//   group.broadcast(tensors);            // rank 0's values everywhere, in place
//   group.all_reduce_sum(tensors);       // element-wise sums over the ranks, in place
//   auto region = group.shared_region(bytes);  // memory all ranks map, where they share memory
#include <torch/types.h>

#include <chrono>
#include <memory>
#include <vector>

#include "neural/adam.hpp"
#include "neural/distributed.hpp"

namespace rave::neural::internal {

class SharedRegion;

/// Bytes per all-reduce bucket (DistributedDataParallel's default bucket_cap_mb is 25).
inline constexpr std::size_t kBucketBytes = std::size_t{25} << 20;

class Collective {
 public:
  /// Joins the run of env.world_size ranks (rank 0 serves the store); waits at most `timeout`
  /// for the others at the rendezvous and for any collective later. UsageError when this build
  /// has no process group for `device`; DistributedError when the peers do not arrive.
  Collective(const DistributedEnv& env, const torch::Device& device,
             std::chrono::milliseconds timeout = std::chrono::minutes(30));
  ~Collective();
  Collective(const Collective&) = delete;
  Collective& operator=(const Collective&) = delete;

  int rank() const { return env_.rank; }
  int size() const { return env_.world_size; }
  /// Whether the CPU sums go through shared memory rather than Gloo (the same on every rank).
  bool sums_in_shared_memory() const;

  /// Overwrites every tensor with rank 0's (same shapes and dtypes on all ranks).
  void broadcast(const std::vector<torch::Tensor>& tensors);
  /// Replaces every tensor with its sum over the ranks.
  void all_reduce_sum(const std::vector<torch::Tensor>& tensors);
  /// Replaces every tensor t with the sum over the ranks of scale x t (scale may differ by rank):
  /// in shared memory the product is taken as the tensors are copied in, on Gloo before.
  void all_reduce_sum(const std::vector<torch::Tensor>& tensors, double scale);
  /// The sum over the ranks of one tensor, returned; `tensor` is left as it was (what the autograd
  /// function of sync batch norm needs). Named apart from the in-place all_reduce_sum.
  [[nodiscard]] torch::Tensor sum_over_ranks(const torch::Tensor& tensor);
  /// Waits until every rank is here.
  void barrier();

  /// `bytes` of zero-filled memory that every rank maps (every rank calls it, with the same size),
  /// where the sums go through shared memory; null on every rank otherwise, or when the region
  /// cannot be had (a /dev/shm too small for it).
  std::shared_ptr<SharedRegion> shared_region(std::size_t bytes);

  /// The data-parallel step in one pass through the shared segment (ZeRO stage 1): sums the
  /// gradients of `adam`'s parameters over the ranks, each rank's times its `scale`, and each
  /// rank steps Adam on its share of the elements only, then receives the others' new values.
  /// The parameters end as all_reduce_sum of the gradients and adam.step() leave them (bit for
  /// bit), for half of Adam's work per rank with two ranks; the gradients are left unsummed and
  /// the moments current only on the share (gather_moments). False, with no step taken, where
  /// the sums are not in shared memory or Adam would not take its fused step.
  /// Missing gradients are set to zeros either way, as average_gradients does.
  bool reduce_and_step(FusedAdam& adam, double scale);
  /// Makes the moments that reduce_and_step left stale whole again on every rank (before a
  /// checkpoint); nothing to do when there are none. Every rank calls it.
  void gather_moments(FusedAdam& adam);

 private:
  struct Impl;
  DistributedEnv env_;
  std::unique_ptr<Impl> impl_;
};

/// RAVE_SHARED_MEMORY: unset or 1 lets the ranks of one machine sum in shared memory, 0 keeps
/// Gloo; any other value is a UsageError naming it (the trainer asks before it writes anything).
bool shared_memory_allowed();

/// The gradients of `parameters`, missing ones set to zeros first (every rank then sums the same
/// tensors).
std::vector<torch::Tensor> gradients_or_zeros(const std::vector<torch::Tensor>& parameters);

/// The weight of a rank's gradients of its mean loss over `local` of `global` problems.
inline double gradient_weight(std::int64_t local, std::int64_t global) {
  return static_cast<double>(local) / static_cast<double>(global);
}

/// Sets every parameter's gradient to the gradient of the global batch's mean loss: this rank's
/// gradients (of its own mean loss over `local` problems) are weighted by local / global and
/// summed over the ranks. Missing gradients count as zeros.
void average_gradients(Collective& group, const std::vector<torch::Tensor>& parameters,
                       std::int64_t local, std::int64_t global);

}  // namespace rave::neural::internal
