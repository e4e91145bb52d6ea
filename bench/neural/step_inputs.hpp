#pragma once
// What a timed training step runs on, shared by train_step_bench.cpp and step_server.cpp: a fixed
// random batch (images uniform 0..255, the DRT rows of O-IG, random targets and meta bits) and the
// loss weights of the PyTorch reference figures (ResNet with both BCE meta terms, WReN with beta
// 10).
//
//   BatchTensors b = random_step_batch(32, 80, torch::kCPU);
//   LossWeights w = step_loss_weights(ModelKind::kWReN);   // {0, 10}
#include "engine/model/structure.hpp"
#include "neural/structure_input.hpp"
#include "neural/train_step.hpp"

namespace rave::neural {

/// `batch` random problems at `side` x `side` on `device`.
inline BatchTensors random_step_batch(std::int64_t batch, std::int64_t side,
                                      const torch::Device& device) {
  const DrtInput drt = drt_input(engine::structure_tree(engine::ConfigId::kOutInGrid));
  const auto on = [&](const torch::Tensor& t) { return t.to(device); };
  BatchTensors b;
  b.input.images = on(torch::randint(0, 256, {batch, kPanels, side, side}).to(torch::kFloat));
  b.input.labels = on(torch::tensor(std::vector<std::int64_t>(drt.labels.begin(), drt.labels.end()))
                          .repeat({batch, 1}));
  b.input.indicator = on(torch::full({batch}, drt.indicator));
  b.targets = on(torch::randint(0, 8, {batch}, torch::kLong));
  b.meta_target = on(torch::randint(0, 2, {batch, kMetaTargetBits}).to(torch::kFloat));
  b.meta_structure = on(torch::randint(0, 2, {batch, kMetaStructureBits}).to(torch::kFloat));
  b.configs = torch::zeros({batch}, torch::kLong);
  return b;
}

/// The reference figures' loss of each model.
inline LossWeights step_loss_weights(ModelKind kind) {
  if (kind == ModelKind::kResNet) return {.meta_alpha = 1.0, .meta_beta = 1.0};
  if (kind == ModelKind::kWReN) return {.meta_alpha = 0.0, .meta_beta = 10.0};
  return {};
}

}  // namespace rave::neural
