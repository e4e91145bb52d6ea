#pragma once
// The four baselines of the RAVEN paper as LibTorch modules (docs/neural-reference.md#models), each
// optionally with the Dynamic Residual Tree (docs/neural-reference.md#dynamic-residual-tree):
// CnnMlp ("CNN"), ResNet18Mlp ("ResNet"), CnnLstm ("LSTM") and WReN. Every model maps the same
// ModelInput (16 panels as raw 0..255 floats, the tree's label rows and indicator) to a ModelOutput
// (8 answer logits, plus meta logits where the architecture has them). Torch-facing: included by
// neural/*.cpp, tests and rave-bench only.
//
//   auto model = make_model(ModelOptions{.kind = ModelKind::kCnn, .drt = true});
//   ModelOutput out = model->forward({images, labels, indicator});   // out.answer: (B, 8)
//   parameter_count(*model) == 2'054'724
#include <torch/nn/module.h>
#include <torch/nn/modules/batchnorm.h>
#include <torch/nn/modules/container/sequential.h>
#include <torch/nn/modules/conv.h>
#include <torch/nn/modules/dropout.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/modules/rnn.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "neural/batch_norm.hpp"
#include "neural/options.hpp"
#include "neural/tree_net.hpp"

namespace rave::neural {

/// Panels per problem: 8 context + 8 candidates.
inline constexpr int kPanels = 16;
/// Width of the npz meta_target (rule bits) and meta_structure (node bits) vectors.
inline constexpr int kMetaTargetBits = 9;
inline constexpr int kMetaStructureBits = 21;

/// One batch as the models see it.
struct ModelInput {
  /// (B, 16, S, S) float, raw 0..255 (no normalisation,
  /// docs/neural-reference.md#data-and-preprocessing)
  torch::Tensor images;
  torch::Tensor labels;     ///< (B, 6) int64 rows into kLabelNames, -1 = empty
  torch::Tensor indicator;  ///< (B) float, 1 = two-component structure
};

/// What a model predicts; absent heads are undefined tensors.
struct ModelOutput {
  torch::Tensor answer;          ///< (B, 8) logits over the candidates
  torch::Tensor meta_target;     ///< (B, 9) rule-bit logits (ResNet, WReN)
  torch::Tensor meta_structure;  ///< (B, 21) structure-bit logits (ResNet)
};

/// Common interface of the four models (the trainer holds them through it).
class RavenModelImpl : public torch::nn::Module {
 public:
  explicit RavenModelImpl(ModelOptions options) : options_(std::move(options)) {}
  /// Forward pass; train() / eval() switch dropout and batch-norm as usual.
  virtual ModelOutput forward(const ModelInput& input) = 0;
  /// The options the model was built from (they are the checkpoint's architecture record).
  const ModelOptions& model_options() const { return options_; }

 protected:
  /// Builds the tree when options ask for it; returns a null holder otherwise.
  TreeNet make_tree(std::int64_t feature_dim);
  /// features + tree(features) when the tree exists, features otherwise; features (B, P, D).
  torch::Tensor with_tree(TreeNet& tree, const torch::Tensor& features,
                          const ModelInput& input) const;

 private:
  ModelOptions options_;
};

/// CNN_MLP (docs/neural-reference.md#cnn_mlp): the 16 panels are the channels of one image; 4 conv
/// blocks, MLP head.
class CnnMlpImpl : public RavenModelImpl {
 public:
  explicit CnnMlpImpl(ModelOptions options);
  ModelOutput forward(const ModelInput& input) override;

 private:
  torch::nn::Sequential conv_{nullptr};
  TreeNet tree_{nullptr};
  torch::nn::Linear fc1_{nullptr}, fc2_{nullptr};
  torch::nn::Dropout dropout_{nullptr};
};
TORCH_MODULE(CnnMlp);

/// torchvision's ResNet-18 up to global average pooling (512-d), `in_channels` input planes.
class ResNet18TrunkImpl : public torch::nn::Module {
 public:
  explicit ResNet18TrunkImpl(std::int64_t in_channels);
  torch::Tensor forward(const torch::Tensor& x);

 private:
  torch::nn::Conv2d conv1_{nullptr};
  SyncBatchNorm2d bn1_{nullptr};
  torch::nn::Sequential layer1_{nullptr}, layer2_{nullptr}, layer3_{nullptr}, layer4_{nullptr};
};
TORCH_MODULE(ResNet18Trunk);

/// ResNet18_MLP (docs/neural-reference.md#resnet18_mlp): torchvision ResNet-18 with a 16-channel
/// conv1; head 512 -> 512 -> 38.
class ResNet18MlpImpl : public RavenModelImpl {
 public:
  explicit ResNet18MlpImpl(ModelOptions options);
  ModelOutput forward(const ModelInput& input) override;

 private:
  ResNet18Trunk backbone_{nullptr};
  TreeNet tree_{nullptr};
  torch::nn::Linear fc1_{nullptr}, fc2_{nullptr};
  torch::nn::Dropout dropout_{nullptr};
};
TORCH_MODULE(ResNet18Mlp);

/// CNN_LSTM (docs/neural-reference.md#cnn_lstm): per-panel conv features, tree per panel, LSTM(256
/// -> 96) over 16 panels.
class CnnLstmImpl : public RavenModelImpl {
 public:
  explicit CnnLstmImpl(ModelOptions options);
  ModelOutput forward(const ModelInput& input) override;

 private:
  torch::nn::Sequential conv_{nullptr};
  TreeNet tree_{nullptr};
  torch::nn::LSTM lstm_{nullptr};
  torch::nn::Linear fc_{nullptr};
};
TORCH_MODULE(CnnLstm);

/// WReN (docs/neural-reference.md#wren, Fen9/WReN adapted to RAVEN's 9 meta bits): panel
/// embeddings, 80 relation pairs per candidate through g, summed, then f -> 9 meta logits + 1 score
/// per candidate.
class WReNImpl : public RavenModelImpl {
 public:
  explicit WReNImpl(ModelOptions options);
  ModelOutput forward(const ModelInput& input) override;

 private:
  torch::Tensor relation_sums(const torch::Tensor& panels);
  torch::nn::Sequential conv_{nullptr};
  torch::nn::Linear proj_{nullptr};
  TreeNet tree_{nullptr};
  torch::nn::Linear g1_{nullptr};
  torch::nn::Sequential g_rest_{nullptr}, f_{nullptr};
};
TORCH_MODULE(WReN);

/// PredRNet's ConvNormAct: a bias-free convolution, batch norm and optionally a ReLU, children "0",
/// "1", "2" as in its code (a Sequential with a plain forward, so that it nests in another).
class ConvNormActImpl : public torch::nn::SequentialImpl {
 public:
  ConvNormActImpl(std::int64_t in, std::int64_t out, torch::ExpandingArray<2> kernel,
                  std::int64_t padding, std::int64_t stride, bool activate);
  torch::Tensor forward(torch::Tensor x) { return SequentialImpl::forward(std::move(x)); }
};
TORCH_MODULE(ConvNormAct);

/// PredRNet's ResBlock (ZjjConan/AVR-PredRNet, networks/network_utils.py).
class PredRNetResBlockImpl : public torch::nn::Module {
 public:
  PredRNetResBlockImpl(std::int64_t in, std::int64_t out, std::int64_t stride);
  torch::Tensor forward(const torch::Tensor& x);

 private:
  ConvNormAct conv1_, conv2_, conv3_;
  torch::nn::Dropout drop_;
  torch::nn::Sequential downsample_{nullptr};
};
TORCH_MODULE(PredRNetResBlock);

/// PredRNet's PredictiveReasoningBlock (networks/predrnet.py).
class PredictiveReasoningBlockImpl : public torch::nn::Module {
 public:
  explicit PredictiveReasoningBlockImpl(std::int64_t planes);
  torch::Tensor forward(const torch::Tensor& x);

 private:
  ConvNormAct pconv_, conv1_, conv2_;
  torch::nn::Dropout drop_;
  ConvNormAct downsample_;
};
TORCH_MODULE(PredictiveReasoningBlock);

/// PredRNet (docs/neural.md#predrnet; Yang et al., ICML 2023): a residual encoder per panel, three
/// predictive reasoning blocks over each candidate's 3x3 matrix, one score per candidate; the
/// published RAVEN configuration, 1,277,889 parameters, its parameters named as in its code.
/// Trained with binary cross-entropy over the one-hot answer (its loss, train_step.hpp).
class PredRNetImpl : public RavenModelImpl {
 public:
  explicit PredRNetImpl(ModelOptions options);
  ModelOutput forward(const ModelInput& input) override;

 private:
  static torch::Tensor candidate_matrices(const torch::Tensor& features);
  torch::Tensor classify(const torch::Tensor& relations);
  std::vector<PredRNetResBlock> res_;
  ConvNormAct channel_reducer_{nullptr};
  std::vector<PredictiveReasoningBlock> prb_;
  std::shared_ptr<torch::nn::Module> classifier_;
  torch::nn::Sequential mlp_{nullptr};
};
TORCH_MODULE(PredRNet);

/// The model an options record describes (UsageError when validate() rejects it).
std::shared_ptr<RavenModelImpl> make_model(const ModelOptions& options);
/// Sets `model`'s weights from `file`, a dict of tensors saved by Python's torch.save (or
/// torch::pickle_save) keyed by the model's parameter and buffer names: every parameter must be
/// there, a buffer may be left out (it keeps its value); an unknown name, another shape or a file
/// that is not such a dict is an InputError naming the file. Returns how many tensors were set.
int load_state_dict_file(RavenModelImpl& model, const std::filesystem::path& file);
/// Draws every batch-norm weight (gamma) of `module` from U(0, 1) with torch's generator, as
/// PyTorch's BatchNorm did before 1.2 (pytorch/pytorch#12325); since then, and in LibTorch, it
/// starts at 1. Returns the number of batch-norm layers changed.
int uniform_batch_norm_weights(torch::nn::Module& module);
/// Number of trainable parameters (buffers such as BN statistics and the label table excluded).
std::int64_t parameter_count(const torch::nn::Module& module);
/// Four 3x3 / stride-2 / unpadded conv + BN + ReLU blocks, in -> width -> ...
/// (docs/neural-reference.md#models).
torch::nn::Sequential conv_stack(std::int64_t in_channels, std::int64_t width);

}  // namespace rave::neural
