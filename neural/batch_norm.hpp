#pragma once
// BatchNorm2d that, in a data-parallel run, normalises over the global batch: in training mode the
// per-channel sums of all ranks are all-reduced (2 collectives forward, 2 backward, through an
// autograd function whose gradient is the all-reduced gradient), so every rank sees the statistics
// one process would see with the whole batch, and the running statistics stay identical across
// ranks. Without a group (one process), or in eval mode, it computes what LibTorch's BatchNorm2d
// computes (the same kernel, defaults eps 1e-5 and momentum 0.1), with the same parameter and
// buffer names. (It does not derive from torch::nn::BatchNorm2dImpl: LibTorch 1.13 does not export
// that base's pretty_print, which a derived class's vtables need.) Torch-facing.
//
//   auto bn = SyncBatchNorm2d(32);
//   bn->set_group(&collective);   // models.hpp: set_batch_norm_group(model, &collective)
#include <torch/nn/cloneable.h>
#include <torch/nn/pimpl.h>

#include <ostream>

namespace rave::neural {

namespace internal {
class Collective;
}

class SyncBatchNorm2dImpl : public torch::nn::Cloneable<SyncBatchNorm2dImpl> {
 public:
  /// Batch norm over `features` channels of (N, C, H, W) inputs.
  explicit SyncBatchNorm2dImpl(std::int64_t features);
  /// (Re)creates weight 1, bias 0, running mean 0, running variance 1, num_batches_tracked 0.
  void reset() override;
  /// Batch statistics over all ranks of `group` in training mode (nullptr: this process only).
  void set_group(internal::Collective* group) { group_ = group; }
  torch::Tensor forward(const torch::Tensor& input);
  /// "SyncBatchNorm2d(C)".
  void pretty_print(std::ostream& stream) const override;

  torch::Tensor weight, bias, running_mean, running_var, num_batches_tracked;

 private:
  torch::Tensor synced(const torch::Tensor& input);
  std::int64_t features_;
  internal::Collective* group_ = nullptr;
};
TORCH_MODULE(SyncBatchNorm2d);

/// Points every SyncBatchNorm2d inside `module` at `group` (nullptr: back to per-process
/// statistics).
void set_batch_norm_group(torch::nn::Module& module, internal::Collective* group);

}  // namespace rave::neural
