// PredRNet (Yang et al., "Neural Prediction Errors Enable Analogical Visual Reasoning in Human
// Intelligence Tests", ICML 2023; public code ZjjConan/AVR-PredRNet, networks/predrnet.py) in the
// configuration its README trains on RAVEN, I-RAVEN and RAVEN-FAIR: 32 filters, 3 predictive
// reasoning blocks, dropout 0.1 in every block and in the classifier, classifier hidden width
// 1024 / 4 (its argparse default), one input channel, row-wise rules only: 1,277,889 parameters at
// any image size. Every module has the name it has in the public code's state dict, so weights move
// between the two by name (docs/neural.md#predrnet).
#include <torch/nn/functional/pooling.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/pooling.h>

#include "neural/models.hpp"

namespace rave::neural {
namespace {

constexpr std::int64_t kFilters = 32;
constexpr std::int64_t kReasoningBlocks = 3;
constexpr std::int64_t kFeatureDim = 1024;  // relations pooled to this width per candidate
constexpr std::int64_t kHiddenReduce = 4;   // classifier hidden width = 1024 / 4
constexpr double kBlockDropout = 0.1;
constexpr double kClassifierDropout = 0.1;
constexpr std::int64_t kContexts = 8;

ConvNormAct conv_norm_act(std::int64_t in, std::int64_t out, torch::ExpandingArray<2> kernel,
                          std::int64_t padding, std::int64_t stride = 1, bool activate = true) {
  return ConvNormAct(in, out, kernel, padding, stride, activate);
}

torch::nn::Dropout block_dropout() { return torch::nn::Dropout(kBlockDropout); }

}  // namespace

ConvNormActImpl::ConvNormActImpl(std::int64_t in, std::int64_t out, torch::ExpandingArray<2> kernel,
                                 std::int64_t padding, std::int64_t stride, bool activate) {
  push_back(torch::nn::Conv2d(
      torch::nn::Conv2dOptions(in, out, kernel).padding(padding).stride(stride).bias(false)));
  push_back(SyncBatchNorm2d(out));
  if (activate) push_back(torch::nn::ReLU());
}

// ResBlock: three ConvNormAct (the first strided), dropout, plus the input average-pooled and
// projected (AvgPool2d(2, stride) then a 1x1 ConvNormAct without activation); no ReLU after the sum.
PredRNetResBlockImpl::PredRNetResBlockImpl(std::int64_t in, std::int64_t out, std::int64_t stride)
    : conv1_(register_module("conv1", conv_norm_act(in, out, 3, 1, stride))),
      conv2_(register_module("conv2", conv_norm_act(out, out, 3, 1))),
      conv3_(register_module("conv3", conv_norm_act(out, out, 3, 1))),
      drop_(register_module("drop", block_dropout())) {
  torch::nn::Sequential down;
  if (stride != 1)
    down->push_back(torch::nn::AvgPool2d(torch::nn::AvgPool2dOptions(2).stride(stride)));
  else
    down->push_back(torch::nn::Identity());
  down->push_back(conv_norm_act(in, out, 1, 0, 1, false));
  downsample_ = register_module("downsample", down);
}

torch::Tensor PredRNetResBlockImpl::forward(const torch::Tensor& x) {
  return drop_(conv3_->forward(conv2_->forward(conv1_->forward(x)))) + downsample_->forward(x);
}

// PredictiveReasoningBlock over (B', C, 9, L): the 8 contexts predict the candidate through a
// (8 x 1) ConvNormAct; the prediction error relu(candidate) - prediction replaces the candidate's
// row; two ConvNormAct (C -> 4C -> C), dropout, plus the input through a 1x1 ConvNormAct.
PredictiveReasoningBlockImpl::PredictiveReasoningBlockImpl(std::int64_t planes)
    : pconv_(register_module("pconv", conv_norm_act(planes, planes, {kContexts, 1}, 0))),
      conv1_(register_module("conv1", conv_norm_act(planes, 4 * planes, 3, 1))),
      conv2_(register_module("conv2", conv_norm_act(4 * planes, planes, 3, 1))),
      drop_(register_module("drop", block_dropout())),
      downsample_(register_module("downsample", conv_norm_act(planes, planes, 1, 0, 1, false))) {}

torch::Tensor PredictiveReasoningBlockImpl::forward(const torch::Tensor& x) {
  const auto contexts = x.narrow(2, 0, kContexts), choices = x.narrow(2, kContexts, 1);
  const auto errors = torch::relu(choices) - pconv_->forward(contexts);
  auto out = conv2_->forward(conv1_->forward(torch::cat({contexts, errors}, 2)));
  return drop_(out) + downsample_->forward(x);
}

PredRNetImpl::PredRNetImpl(ModelOptions options) : RavenModelImpl(std::move(options)) {
  validate(model_options());
  const std::array<std::int64_t, 4> channels{kFilters, 2 * kFilters, 3 * kFilters, 4 * kFilters};
  std::int64_t in = 1;
  for (std::size_t l = 0; l < channels.size(); ++l) {
    res_.push_back(register_module("res" + std::to_string(l),
                                   PredRNetResBlock(in, channels[l], /*stride=*/2)));
    in = channels[l];
  }
  channel_reducer_ =
      register_module("channel_reducer", conv_norm_act(in, kFilters, 1, 0, 1, /*activate=*/false));
  for (std::int64_t l = 0; l < kReasoningBlocks; ++l)
    prb_.push_back(register_module("prb" + std::to_string(l), PredictiveReasoningBlock(kFilters)));
  const std::int64_t hidden = kFeatureDim / kHiddenReduce;
  classifier_ = register_module("classifier", std::make_shared<torch::nn::Module>());
  mlp_ = classifier_->register_module(
      "mlp", torch::nn::Sequential(
                 torch::nn::Linear(torch::nn::LinearOptions(kFeatureDim, hidden).bias(false)),
                 SyncBatchNorm2d(hidden), torch::nn::ReLU(), torch::nn::Dropout(kClassifierDropout),
                 torch::nn::Linear(hidden, 1)));
}

// The candidate's 9-panel matrices: (B, 16, C, L) -> (B x 8, C, 9, L), the 8 contexts then candidate
// i (the public code's convert_to_rpm_matrix_v9, then its permute).
torch::Tensor PredRNetImpl::candidate_matrices(const torch::Tensor& features) {
  const auto b = features.size(0), c = features.size(2), l = features.size(3);
  const auto contexts =
      features.narrow(1, 0, kContexts).unsqueeze(1).expand({b, 8, kContexts, c, l});
  const auto candidates = features.narrow(1, kContexts, 8).unsqueeze(2);
  return torch::cat({contexts, candidates}, 2)
      .reshape({b * 8, kContexts + 1, c, l})
      .permute({0, 2, 1, 3});
}

// Linear, BatchNorm1d (as a 2-d batch norm over (N, C, 1, 1)), ReLU, dropout, Linear -> 1 score.
torch::Tensor PredRNetImpl::classify(const torch::Tensor& relations) {
  auto x = mlp_[0]->as<torch::nn::Linear>()->forward(relations);
  x = mlp_[1]->as<SyncBatchNorm2d>()->forward(x.view({x.size(0), x.size(1), 1, 1})).flatten(1);
  x = mlp_[3]->as<torch::nn::Dropout>()->forward(torch::relu(x));
  return mlp_[4]->as<torch::nn::Linear>()->forward(x);
}

ModelOutput PredRNetImpl::forward(const ModelInput& input) {
  const auto b = input.images.size(0), side = input.images.size(2);
  // normalize_image of the public code: grey levels 0..255 to -1..1
  auto x = ((input.images / 255.0 - 0.5) * 2).reshape({b * kPanels, 1, side, side});
  for (auto& res : res_) x = res->forward(x);
  x = channel_reducer_->forward(x);
  auto m = candidate_matrices(x.reshape({b, kPanels, x.size(1), -1}));
  for (auto& prb : prb_) m = prb->forward(m);
  namespace F = torch::nn::functional;
  const auto relations =
      F::adaptive_avg_pool1d(m.reshape({b, 8, -1}), F::AdaptiveAvgPool1dFuncOptions(kFeatureDim));
  return {classify(relations.reshape({b * 8, kFeatureDim})).view({b, 8}), {}, {}};
}

}  // namespace rave::neural
