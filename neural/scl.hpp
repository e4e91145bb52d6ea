#pragma once
// SCL, the Scattering Compositional Learner (Wu, Dong, Grosse and Ba, 2020; public code dhh1995/SCL,
// analogy/nn/), in the setting its README trains jointly on RAVEN's seven configurations, the one
// its Balanced-RAVEN (I-RAVEN) figure comes from: 137,286 parameters at 160x160 panels
// (docs/neural.md#scl; scripts/neural/scl_reference.py count). Every tensor has the name it has in
// the public code's state dict, so weights move between the two by name (load_state_dict_file).
// Torch-facing: included by neural/models.cpp and tests.
//
//   auto model = make_model({.kind = ModelKind::kScl});
//   parameter_count(*model) == 137'286;  model->forward(input).answer.sizes() == {B, 8}
#include <torch/nn/modules/container/modulelist.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/normalization.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <utility>
#include <vector>

#include "neural/models.hpp"

namespace rave::neural {

/// Jacinle's LinearLayer as MLPModel's hidden layers use it: Linear then ReLU, children "0", "1" (a
/// Sequential with a plain forward, so that it nests in another).
class SclLinearLayerImpl : public torch::nn::SequentialImpl {
 public:
  SclLinearLayerImpl(std::int64_t in, std::int64_t out);
  torch::Tensor forward(torch::Tensor x) { return SequentialImpl::forward(std::move(x)); }
};
TORCH_MODULE(SclLinearLayer);

/// Jacinle's MLPModel: (Linear, ReLU) per hidden width, then a Linear; children "mlp.0.0", ...,
/// applied over the last dimension.
class SclMlpImpl : public torch::nn::Module {
 public:
  SclMlpImpl(std::int64_t in, const std::vector<std::int64_t>& hidden, std::int64_t out);
  torch::Tensor forward(const torch::Tensor& x) { return mlp_->forward(x); }

 private:
  torch::nn::Sequential mlp_{nullptr};
};
TORCH_MODULE(SclMlp);

/// SCL's FCResBlock: x + W2 relu(LN(W1 relu(LN(x)))), weights drawn from N(0, 0.005^2) as its code
/// does.
class FcResBlockImpl : public torch::nn::Module {
 public:
  explicit FcResBlockImpl(std::int64_t dim);
  torch::Tensor forward(const torch::Tensor& x);

 private:
  torch::nn::LayerNorm norm_in_{nullptr}, norm_out_{nullptr};
  torch::nn::Linear transform1_{nullptr}, transform2_{nullptr};
};
TORCH_MODULE(FcResBlock);

/// SCL's SharedGroupMLP: the last dimension split into `groups` equal slices, each slice (with the
/// dimension before it) flattened and fed to the same MLP, then an FCResBlock; one such MLP per
/// expert, outputs concatenated expert by expert within each group.
class SharedGroupMlpImpl : public torch::nn::Module {
 public:
  SharedGroupMlpImpl(std::int64_t groups, std::int64_t group_in, std::int64_t group_out,
                     const std::vector<std::int64_t>& hidden, std::int64_t experts);
  /// (N, A, groups * S) -> (N, groups * experts * group_out).
  torch::Tensor forward(const torch::Tensor& x);

 private:
  std::int64_t groups_;
  std::vector<SclMlp> mlps_;
  std::vector<FcResBlock> blocks_;
};
TORCH_MODULE(SharedGroupMlp);

/// SCL (docs/neural.md#scl): a 4-layer conv net per panel (16, 16, 32, 32 channels, stride 2), its
/// spatial map mapped to 80 by an MLP, scattered into 10 groups of 8 attributes (the visual
/// SharedGroupMLP) and a residual block; then for each candidate, each of the 80 attributes of the
/// 9 panels goes through 5 shared experts (9 -> 64 -> 32 -> 1, residual block), a softmax over the
/// experts, and an MLP (400 -> 128 -> 1) scores the candidate. Cross-entropy over the 8 scores.
class SclImpl : public RavenModelImpl {
 public:
  explicit SclImpl(ModelOptions options);
  ModelOutput forward(const ModelInput& input) override;

 private:
  torch::Tensor panel_attributes(const torch::Tensor& images);
  torch::Tensor candidate_scores(const torch::Tensor& attributes);
  std::int64_t spatial_ = 0;
  torch::nn::Sequential conv_;  // typed view of v2s.cnn's convolutions, norms and ReLUs
  SclMlp mlp_transform_{nullptr};
  SharedGroupMlp visual_groups_{nullptr};
  FcResBlock attribute_block_{nullptr};
  SharedGroupMlp experts_{nullptr};
  SclMlp scorer_{nullptr};
};
TORCH_MODULE(Scl);

}  // namespace rave::neural
