#include "neural/training.hpp"

#include <dlfcn.h>
#include <torch/cuda.h>
#include <torch/nn/functional/loss.h>
#include <torch/utils.h>

#include <thread>

#include "common/error.hpp"
#include "neural/trainer.hpp"

namespace rave::neural {
namespace {

namespace F = torch::nn::functional;

torch::Tensor wrap(const void* data, std::vector<std::int64_t> shape, torch::Dtype dtype) {
  return torch::from_blob(const_cast<void*>(data), shape, torch::TensorOptions().dtype(dtype));
}

torch::Tensor mean_bce(const torch::Tensor& logits, const torch::Tensor& bits) {
  return F::binary_cross_entropy_with_logits(logits, bits);  // mean over batch and bits (spec 4)
}

}  // namespace

BatchTensors to_tensors(const HostBatch& b, const torch::Device& device) {
  const std::int64_t n = b.size, s = b.image_size;
  BatchTensors t;
  t.input.images = wrap(b.images.data(), {n, kPanels, s, s}, torch::kUInt8).to(device).to(torch::kFloat);
  t.input.labels = wrap(b.labels.data(), {n, 6}, torch::kLong).to(device);
  t.input.indicator = wrap(b.indicator.data(), {n}, torch::kFloat).to(device);
  t.targets = wrap(b.targets.data(), {n}, torch::kLong).to(device);
  t.meta_target = wrap(b.meta_target.data(), {n, kMetaTargetBits}, torch::kFloat).to(device);
  t.meta_structure = wrap(b.meta_structure.data(), {n, kMetaStructureBits}, torch::kFloat).to(device);
  t.configs = wrap(b.configs.data(), {n}, torch::kLong).clone();
  if (device.is_cpu()) {  // from_blob does not own the host buffers: detach from them
    t.input.labels = t.input.labels.clone();
    t.input.indicator = t.input.indicator.clone();
    t.targets = t.targets.clone();
    t.meta_target = t.meta_target.clone();
    t.meta_structure = t.meta_structure.clone();
  }
  return t;
}

torch::Tensor raven_loss(const ModelOutput& out, const BatchTensors& batch, const LossWeights& w) {
  auto loss = F::cross_entropy(out.answer, batch.targets);
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

torch::optim::Adam make_adam(RavenModelImpl& model, const AdamSettings& s) {
  return torch::optim::Adam(model.parameters(), torch::optim::AdamOptions(s.learning_rate)
                                                    .betas({s.beta1, s.beta2})
                                                    .eps(s.epsilon)
                                                    .weight_decay(0.0));
}

StepStats train_step(RavenModelImpl& model, torch::optim::Optimizer& optimizer, const BatchTensors& batch,
                     const LossWeights& weights) {
  model.train();
  for (auto& p : model.parameters()) p.mutable_grad() = torch::Tensor();  // set_to_none: backward writes, not adds
  const ModelOutput out = model.forward(batch.input);
  const auto loss = raven_loss(out, batch, weights);
  loss.backward();
  optimizer.step();
  const auto n = batch.targets.size(0);
  return {loss.item<double>() * static_cast<double>(n),
          out.answer.argmax(1).eq(batch.targets).sum().item<std::int64_t>(), n};
}

StepStats eval_step(RavenModelImpl& model, const BatchTensors& batch, std::vector<std::uint8_t>* correct_per_problem,
                    std::vector<float>* answer_logits) {
  model.eval();
  torch::NoGradGuard no_grad;
  const ModelOutput out = model.forward(batch.input);
  const auto right = out.answer.argmax(1).eq(batch.targets).to(torch::kCPU).to(torch::kUInt8).contiguous();
  const auto n = batch.targets.size(0);
  if (correct_per_problem) correct_per_problem->assign(right.data_ptr<std::uint8_t>(), right.data_ptr<std::uint8_t>() + n);
  if (answer_logits) {
    const auto logits = out.answer.detach().to(torch::kCPU).to(torch::kFloat).contiguous();
    answer_logits->assign(logits.data_ptr<float>(), logits.data_ptr<float>() + logits.numel());
  }
  return {F::cross_entropy(out.answer, batch.targets).item<double>() * static_cast<double>(n),
          right.sum().item<std::int64_t>(), n};
}

torch::Device resolve_device(Device device) {
  const bool cuda = torch::cuda::is_available();
  if (device == Device::kCuda && !cuda)
    throw UsageError("--device cuda: no usable CUDA device (this LibTorch build or machine has none); use --device cpu");
  return (device == Device::kCpu || !cuda) ? torch::Device(torch::kCPU) : torch::Device(torch::kCUDA);
}

std::string resolve_device_name(Device device) { return resolve_device(device).is_cuda() ? "cuda" : "cpu"; }

// Debian's LibTorch calls the system BLAS; when that is OpenBLAS (libopenblas0-pthread), its own
// thread pool would run beside torch's OpenMP threads, so both get the same count. The symbol is
// looked up at run time: with the reference BLAS it is absent and only torch is set.
void set_compute_threads(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  torch::set_num_threads(threads);
  using SetThreads = void (*)(int);
  if (auto* set_blas = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
    set_blas(threads);
}

}  // namespace rave::neural
