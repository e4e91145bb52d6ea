// SCL (Wu et al., "The Scattering Compositional Learner: Discovering Objects, Attributes,
// Relationships in Analogical Reasoning", 2020; public code dhh1995/SCL, analogy/nn/) in its
// README's joint-training setting (`-v -tsd 80 -fg 10 -nf 80 -chd 16 16 32 32 -rb -erb -vhd 128
// -hd 64 32 -lhd 128`, its argparse defaults otherwise), docs/neural.md#scl. The modules are held
// under the names of the public code's state dict (v2s.cnn.conv_blocks.K.convs.0.conv, ...), so a
// state dict moves between the two by name.
#include "neural/scl.hpp"

#include <torch/nn/init.h>
#include <torch/nn/modules/activation.h>
#include <torch/nn/modules/conv.h>

#include <string>

namespace rave::neural {
namespace {

constexpr std::int64_t kContexts = 8;
constexpr std::int64_t kCandidates = 8;
constexpr std::int64_t kAttributes = 80;      // -nf: features per panel
constexpr std::int64_t kVisualGroups = 10;    // -fg: groups of the visual SharedGroupMLP
constexpr std::int64_t kTransformedDim = 80;  // -tsd: the spatial map mapped to this width
constexpr std::int64_t kExperts = 5;          // -ne (default)
constexpr std::int64_t kExpertInput = kContexts + 1;
constexpr std::int64_t kConvChannels[] = {16, 16, 32, 32};  // -chd
constexpr double kResidualInitStd = 0.005;                  // FCResBlock's normal_(std=0.005)

using Widths = std::vector<std::int64_t>;

// An unnamed container whose children carry the given names.
std::shared_ptr<torch::nn::Module> holder() { return std::make_shared<torch::nn::Module>(); }

}  // namespace

SclLinearLayerImpl::SclLinearLayerImpl(std::int64_t in, std::int64_t out) {
  push_back(torch::nn::Linear(in, out));
  push_back(torch::nn::ReLU());
}

SclMlpImpl::SclMlpImpl(std::int64_t in, const std::vector<std::int64_t>& hidden, std::int64_t out) {
  torch::nn::Sequential mlp;
  for (const auto width : hidden) {
    mlp->push_back(SclLinearLayer(in, width));
    in = width;
  }
  mlp->push_back(torch::nn::Linear(in, out));
  mlp_ = register_module("mlp", mlp);
}

FcResBlockImpl::FcResBlockImpl(std::int64_t dim)
    : norm_in_(
          register_module("norm_in", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})))),
      norm_out_(
          register_module("norm_out", torch::nn::LayerNorm(torch::nn::LayerNormOptions({dim})))),
      transform1_(register_module("transform1", torch::nn::Linear(dim, dim))),
      transform2_(register_module("transform2", torch::nn::Linear(dim, dim))) {
  torch::NoGradGuard no_grad;
  torch::nn::init::normal_(transform1_->weight, 0.0, kResidualInitStd);
  torch::nn::init::normal_(transform2_->weight, 0.0, kResidualInitStd);
}

torch::Tensor FcResBlockImpl::forward(const torch::Tensor& x) {
  const auto branch = norm_out_(transform1_(torch::relu(norm_in_(x))));
  return x + transform2_(torch::relu(branch));
}

SharedGroupMlpImpl::SharedGroupMlpImpl(std::int64_t groups, std::int64_t group_in,
                                       std::int64_t group_out,
                                       const std::vector<std::int64_t>& hidden,
                                       std::int64_t experts)
    : groups_(groups) {
  torch::nn::ModuleList mlps, blocks;
  for (std::int64_t e = 0; e < experts; ++e) {
    mlps_.push_back(SclMlp(group_in, hidden, group_out));
    mlps->push_back(mlps_.back());
    blocks_.push_back(FcResBlock(group_out));
    blocks->push_back(blocks_.back());
  }
  register_module("mlps", mlps);
  register_module("FCblocks", blocks);
}

// Group g holds slice g of the last dimension, flattened with the dimension before it (row-major,
// that dimension outer), as the code's split / flatten / stack does.
torch::Tensor SharedGroupMlpImpl::forward(const torch::Tensor& x) {
  const auto n = x.size(0), a = x.size(1), slice = x.size(2) / groups_;
  const auto grouped =
      x.reshape({n, a, groups_, slice}).permute({0, 2, 1, 3}).reshape({n, groups_, a * slice});
  std::vector<torch::Tensor> outputs;
  for (std::size_t e = 0; e < mlps_.size(); ++e)
    outputs.push_back(blocks_[e]->forward(mlps_[e]->forward(grouped)));
  return torch::cat(outputs, -1).flatten(1);
}

SclImpl::SclImpl(ModelOptions options) : RavenModelImpl(std::move(options)) {
  validate(model_options());
  auto side = static_cast<std::int64_t>(resolved_image_size(model_options()));
  auto v2s = register_module("v2s", holder());
  auto cnn = v2s->register_module("cnn", holder());
  torch::nn::ModuleList blocks;
  std::int64_t in = 1;
  for (const auto out : kConvChannels) {
    auto block = holder();
    auto conv_holder = holder();
    const torch::nn::Conv2d conv(torch::nn::Conv2dOptions(in, out, 3).stride(2).padding(1));
    conv_holder->register_module("conv", conv);
    const SyncBatchNorm2d norm(out);
    block->register_module("convs", torch::nn::ModuleList(conv_holder));
    block->register_module("norms", torch::nn::ModuleList(norm));
    blocks->push_back(block);
    conv_->push_back(conv);
    conv_->push_back(norm);
    conv_->push_back(torch::nn::ReLU());
    in = out;
    side = (side + 1) / 2;
  }
  cnn->register_module("conv_blocks", blocks);
  spatial_ = side * side;
  const auto channels = in;
  mlp_transform_ =
      v2s->register_module("mlp_transform", SclMlp(spatial_, Widths{}, kTransformedDim));
  visual_groups_ = v2s->register_module(
      "shared_group_mlp", SharedGroupMlp(kVisualGroups, channels * kTransformedDim / kVisualGroups,
                                         kAttributes / kVisualGroups, Widths{128}, 1));
  auto symbolic = register_module("symbolic_model", holder());
  attribute_block_ = symbolic->register_module("FCblock", FcResBlock(kAttributes));
  experts_ = symbolic->register_module(
      "experts", SharedGroupMlp(kAttributes, kExpertInput, 1, Widths{64, 32}, kExperts));
  auto scorer = symbolic->register_module("scorer", holder());
  scorer_ = SclMlp(kAttributes * kExperts, Widths{128}, 1);
  scorer->register_module("mlps", torch::nn::ModuleList(scorer_));
}

// (B, 16, S, S) raw grey levels -> (B, 16, 80) attributes per panel.
torch::Tensor SclImpl::panel_attributes(const torch::Tensor& images) {
  const auto b = images.size(0), side = images.size(2);
  const auto maps = conv_->forward(images.reshape({b * kPanels, 1, side, side}));
  const auto channels = maps.size(1);
  const auto spatial = mlp_transform_->forward(maps.reshape({-1, spatial_}));
  return visual_groups_->forward(spatial.view({b * kPanels, channels, kTransformedDim}))
      .view({b, kPanels, kAttributes});
}

// (B, 16, 80) -> (B, 8): each candidate completes the 8 contexts; every attribute's 9 values go
// through the experts; the softmax over experts feeds the scorer.
torch::Tensor SclImpl::candidate_scores(const torch::Tensor& attributes) {
  const auto b = attributes.size(0);
  const auto x = attribute_block_->forward(attributes);
  const auto context =
      x.narrow(1, 0, kContexts).unsqueeze(1).expand({b, kCandidates, kContexts, kAttributes});
  const auto candidates = x.narrow(1, kContexts, kCandidates).unsqueeze(2);
  const auto rows =
      torch::cat({context, candidates}, 2).reshape({b * kCandidates, kExpertInput, kAttributes});
  const auto latent = experts_->forward(rows).view({-1, kAttributes, kExperts});
  return scorer_->forward(torch::softmax(latent, -1).reshape({-1, kAttributes * kExperts}))
      .view({b, kCandidates});
}

ModelOutput SclImpl::forward(const ModelInput& input) {
  return {candidate_scores(panel_attributes(input.images)), {}, {}};
}

}  // namespace rave::neural
