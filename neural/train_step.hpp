#pragma once
// The pieces of a training step, torch-facing (epoch_loop.cpp, tests, rave-bench): a host batch as
// device tensors, the loss of docs/neural-reference.md#losses, Adam with the reference settings
// (docs/neural-reference.md#training-and-evaluation), one optimisation step and one evaluation
// pass. epoch_loop.hpp builds the epoch loop on these.
//
//   auto model = make_model({.kind = ModelKind::kCnn, .drt = true});
//   auto adam = make_adam(*model, {});
//   BatchTensors t = to_tensors(host_batch, torch::kCPU);
//   StepStats s = train_step(*model, adam, t, {});    // s.loss, s.correct
//   train_step(*model, adam, t, {},
//              {.precision = Precision::kBf16, .group = &collective, .global_batch = 64});
#include <torch/optim/adam.h>

#include <cstdint>

#include "neural/adam.hpp"
#include "neural/models.hpp"
#include "neural/pipeline.hpp"

namespace rave::neural {

namespace internal {
class Collective;
}

/// A batch on a device.
struct BatchTensors {
  ModelInput input;
  torch::Tensor targets;         ///< (B) int64
  torch::Tensor meta_target;     ///< (B, 9) float bits
  torch::Tensor meta_structure;  ///< (B, 21) float bits
  torch::Tensor configs;         ///< (B) int64 configuration index (host)
};

/// Wraps a host batch (no copy on CPU) and moves it to `device`; images become float 0..255 there.
/// On CUDA the bytes go through pinned host memory with non-blocking copies.
BatchTensors to_tensors(const HostBatch& batch, const torch::Device& device);

/// Weights of the auxiliary terms (docs/neural-reference.md#losses).
struct LossWeights {
  double meta_alpha = 0.0;  ///< mean BCE over the 21 structure bits (ResNet head)
  double meta_beta = 0.0;   ///< mean BCE over the 9 rule bits (ResNet, WReN heads)
  /// The answer term as binary cross-entropy over the 8 scores against the one-hot answer (mean
  /// over B x 8; PredRNet's loss.py) instead of the cross-entropy over the candidates.
  bool binary_answers = false;
};
/// Cross-entropy over the 8 candidates (or, with binary_answers, BCE against the one-hot answer)
/// plus the weighted auxiliary terms (BCE with logits).
torch::Tensor raven_loss(const ModelOutput& out, const BatchTensors& batch,
                         const LossWeights& weights);

/// Adam settings; the defaults are the reference's (lr 1e-4, betas 0.9/0.999, eps 1e-8, no decay).
struct AdamSettings {
  double learning_rate = 1e-4;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
  /// L2 penalty added to the gradient (torch's Adam weight_decay, not AdamW's); the reference's 0.
  double weight_decay = 0.0;
};
/// The reference's optimiser (FusedAdam: torch's Adam, its update in one pass on the CPU).
FusedAdam make_adam(RavenModelImpl& model, const AdamSettings& settings);

/// Sums over the batches of a phase.
struct StepStats {
  double loss = 0;           ///< sum of per-batch mean loss x batch size
  std::int64_t correct = 0;  ///< argmax == target
  std::int64_t problems = 0;
};
/// How a step runs beyond its batch.
struct StepOptions {
  Precision precision = Precision::kFp32;  ///< bf16: the forward pass and loss under autocast
  internal::Collective* group = nullptr;   ///< data parallel: gradients averaged over its ranks
  std::int64_t global_batch = 0;           ///< problems in the global batch (0: this batch alone)
  /// With a group whose sums run in shared memory and a FusedAdam: each rank steps its share of
  /// the parameters (Collective::reduce_and_step); the same weights as without, bit for bit.
  bool shard_optimizer = true;
};

/// zero_grad, forward (train mode), loss, backward, gradient all-reduce (with a group), step.
StepStats train_step(RavenModelImpl& model, torch::optim::Optimizer& optimizer,
                     const BatchTensors& batch, const LossWeights& weights,
                     const StepOptions& step = {});
/// Forward in eval mode without gradients; the loss is the cross-entropy; `correct_per_problem`
/// (optional) receives one 0/1 per problem, `answer_logits` (optional) the 8 answer logits per
/// problem, row-major.
StepStats eval_step(RavenModelImpl& model, const BatchTensors& batch,
                    std::vector<std::uint8_t>* correct_per_problem,
                    Precision precision = Precision::kFp32,
                    std::vector<float>* answer_logits = nullptr);

/// The torch device for a request: cuda without an index is cuda:local_rank. UsageError for cuda
/// without a usable GPU or with an index past the last one. Turns cudnn's benchmark mode on (the
/// models' input shapes are fixed).
torch::Device resolve_device(const DeviceSpec& device, int local_rank = 0);

}  // namespace rave::neural
