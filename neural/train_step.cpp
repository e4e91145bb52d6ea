#include "neural/train_step.hpp"

#include <ATen/autocast_mode.h>
#include <torch/cuda.h>
#include <torch/nn/functional/loss.h>
#include <torch/utils.h>

#include <thread>

#include "common/error.hpp"
#include "neural/internal/collective.hpp"

namespace rave::neural {
namespace {

namespace F = torch::nn::functional;

torch::Tensor wrap(const void* data, const std::vector<std::int64_t>& shape, torch::Dtype dtype) {
  return torch::from_blob(const_cast<void*>(data), shape, torch::TensorOptions().dtype(dtype));
}

torch::Tensor mean_bce(const torch::Tensor& logits, const torch::Tensor& bits) {
  // Mean over batch and bits (docs/neural-reference.md#losses).
  return F::binary_cross_entropy_with_logits(logits, bits);
}

// A host buffer on `device`, owning its memory: a copy on the CPU; on CUDA a copy into pinned
// (page-locked) memory, then an asynchronous transfer (the caching host allocator keeps the pinned
// block until the copy is done).
torch::Tensor on_device(const void* data, const std::vector<std::int64_t>& shape,
                        torch::Dtype dtype, const torch::Device& device) {
  const auto host = wrap(data, shape, dtype);
  if (!device.is_cuda()) return host.clone();
  auto pinned = torch::empty(shape, torch::TensorOptions().dtype(dtype).pinned_memory(true));
  pinned.copy_(host);
  return pinned.to(device, /*non_blocking=*/true);
}

// bf16 autocast for the forward pass and the loss, as torch.autocast(device, torch.bfloat16):
// previous state restored and the cast cache cleared when the outermost scope ends.
class AutocastScope {
 public:
  AutocastScope(Precision precision, const torch::Device& device)
      : on_(precision == Precision::kBf16), type_(device.type()) {
    if (!on_) return;
    previous_ = enabled();
    set(true);
    at::autocast::increment_nesting();
  }
  ~AutocastScope() {
    if (!on_) return;
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    set(previous_);
  }
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

 private:
  bool enabled() const { return at::autocast::is_autocast_enabled(type_); }
  void set(bool on) const {
    at::autocast::set_autocast_dtype(type_, at::kBFloat16);
    at::autocast::set_autocast_enabled(type_, on);
  }
  bool on_;
  c10::DeviceType type_;
  bool previous_ = false;
};

}  // namespace

BatchTensors to_tensors(const HostBatch& b, const torch::Device& device) {
  const std::int64_t n = b.size, s = b.image_size;
  BatchTensors t;
  // On the CPU the conversion to float is the copy; no owning uint8 copy first.
  const std::vector<std::int64_t> panels{n, kPanels, s, s};
  t.input.images = device.is_cuda()
                       ? on_device(b.images.data(), panels, torch::kUInt8, device).to(torch::kFloat)
                       : wrap(b.images.data(), panels, torch::kUInt8).to(torch::kFloat);
  t.input.labels = on_device(b.labels.data(), {n, 6}, torch::kLong, device);
  t.input.indicator = on_device(b.indicator.data(), {n}, torch::kFloat, device);
  t.targets = on_device(b.targets.data(), {n}, torch::kLong, device);
  t.meta_target = on_device(b.meta_target.data(), {n, kMetaTargetBits}, torch::kFloat, device);
  t.meta_structure =
      on_device(b.meta_structure.data(), {n, kMetaStructureBits}, torch::kFloat, device);
  t.configs = wrap(b.configs.data(), {n}, torch::kLong).clone();
  return t;
}

torch::Tensor raven_loss(const ModelOutput& out, const BatchTensors& batch, const LossWeights& w) {
  auto loss =
      w.binary_answers
          ? mean_bce(out.answer,
                     torch::one_hot(batch.targets, out.answer.size(1)).to(out.answer.scalar_type()))
          : F::cross_entropy(out.answer, batch.targets);
  if (w.meta_beta != 0.0) {
    RAVE_CHECK(out.meta_target.defined(), "meta_beta needs a model with a rule-bit head");
    loss = loss + w.meta_beta * mean_bce(out.meta_target, batch.meta_target);
  }
  if (w.meta_alpha != 0.0) {
    RAVE_CHECK(out.meta_structure.defined(), "meta_alpha needs a model with a structure-bit head");
    loss = loss + w.meta_alpha * mean_bce(out.meta_structure, batch.meta_structure);
  }
  return loss;
}

FusedAdam make_adam(RavenModelImpl& model, const AdamSettings& s) {
  return FusedAdam(model.parameters(), torch::optim::AdamOptions(s.learning_rate)
                                           .betas({s.beta1, s.beta2})
                                           .eps(s.epsilon)
                                           .weight_decay(s.weight_decay));
}

namespace {

// The optimizer's step; with a group, on the gradient of the global batch's mean loss.
void synchronised_step(RavenModelImpl& model, torch::optim::Optimizer& optimizer, std::int64_t n,
                       const StepOptions& step) {
  if (!step.group) {
    optimizer.step();
    return;
  }
  const std::int64_t global = step.global_batch ? step.global_batch : n;
  auto* adam = step.shard_optimizer ? dynamic_cast<FusedAdam*>(&optimizer) : nullptr;
  if (adam && step.group->reduce_and_step(*adam, internal::gradient_weight(n, global))) return;
  internal::average_gradients(*step.group, model.parameters(), n, global);
  optimizer.step();
}

}  // namespace

StepStats train_step(RavenModelImpl& model, torch::optim::Optimizer& optimizer,
                     const BatchTensors& batch, const LossWeights& weights,
                     const StepOptions& step) {
  model.train();
  for (auto& p : model.parameters())
    p.mutable_grad() = torch::Tensor();  // set_to_none: backward writes, not adds
  ModelOutput out;
  torch::Tensor loss;
  {
    AutocastScope autocast(step.precision, batch.targets.device());
    out = model.forward(batch.input);
    loss = raven_loss(out, batch, weights);
  }
  loss.backward();
  const auto n = batch.targets.size(0);
  synchronised_step(model, optimizer, n, step);
  return {loss.item<double>() * static_cast<double>(n),
          out.answer.argmax(1).eq(batch.targets).sum().item<std::int64_t>(), n};
}

StepStats eval_step(RavenModelImpl& model, const BatchTensors& batch,
                    std::vector<std::uint8_t>* correct_per_problem, Precision precision,
                    std::vector<float>* answer_logits) {
  model.eval();
  torch::NoGradGuard no_grad;
  ModelOutput out;
  {
    AutocastScope autocast(precision, batch.targets.device());
    out = model.forward(batch.input);
  }
  const auto right =
      out.answer.argmax(1).eq(batch.targets).to(torch::kCPU).to(torch::kUInt8).contiguous();
  const auto n = batch.targets.size(0);
  if (correct_per_problem)
    correct_per_problem->assign(right.data_ptr<std::uint8_t>(), right.data_ptr<std::uint8_t>() + n);
  if (answer_logits) {
    const auto logits = out.answer.detach().to(torch::kCPU).to(torch::kFloat).contiguous();
    answer_logits->assign(logits.data_ptr<float>(), logits.data_ptr<float>() + logits.numel());
  }
  return {F::cross_entropy(out.answer.to(torch::kFloat), batch.targets).item<double>() *
              static_cast<double>(n),
          right.sum().item<std::int64_t>(), n};
}

torch::Device resolve_device(const DeviceSpec& device, int local_rank) {
  const bool cuda = torch::cuda::is_available();
  if (device.kind == Device::kCuda && !cuda)
    throw UsageError(
        "device cuda: no usable CUDA device (this LibTorch build or machine has none); use the "
        "CPU");
  if (device.kind == Device::kCpu || !cuda) return torch::Device(torch::kCPU);
  const auto count = static_cast<int>(torch::cuda::device_count());
  const int index = device.index >= 0              ? device.index
                    : device.kind == Device::kAuto ? local_rank % count
                                                   : local_rank;
  if (index >= count)
    throw UsageError("device cuda:" + std::to_string(index) + ": this machine has " +
                     std::to_string(count) + " CUDA device" + (count == 1 ? "" : "s") +
                     " (cuda:0 .. cuda:" + std::to_string(count - 1) + ")");
  at::globalContext().setBenchmarkCuDNN(
      true);  // fixed input shapes: let cudnn pick the fastest kernels once
  return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(index));
}

}  // namespace rave::neural
