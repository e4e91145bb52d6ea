#include "neural/models.hpp"

#include <torch/nn/modules/activation.h>
#include <torch/serialize.h>

#include <fstream>
#include <iterator>
#include <map>

#include "common/error.hpp"
#include "neural/adam.hpp"
#include "neural/scl.hpp"

namespace rave::neural {
namespace {

constexpr std::int64_t kAnswers = 8;
constexpr double kDropout = 0.5;

torch::nn::Linear linear(std::int64_t in, std::int64_t out) { return torch::nn::Linear(in, out); }

// Conv feature width after conv_stack on an S x S panel: 4 halvings of (S - 3) / 2 + 1.
std::int64_t conv_stack_side(std::int64_t side) {
  for (int i = 0; i < 4; ++i) side = (side - 3) / 2 + 1;
  return side;
}

// WReN's panel tags (docs/neural-reference.md#wren): slot i for context panel i, slot 8 for every
// candidate; built per batch, so a short last batch works (the reference's fixed-size tag tensor
// crashed there).
torch::Tensor panel_tags(std::int64_t batch, const torch::TensorOptions& options) {
  auto tags = torch::zeros({kPanels, 9}, options);
  for (int i = 0; i < kPanels; ++i) tags[i][std::min(i, 8)] = 1.0;
  return tags.unsqueeze(0).expand({batch, kPanels, 9});
}

}  // namespace

torch::nn::Sequential conv_stack(std::int64_t in_channels, std::int64_t width) {
  torch::nn::Sequential seq;
  for (int i = 0; i < 4; ++i) {
    seq->push_back(torch::nn::Conv2d(
        torch::nn::Conv2dOptions(i == 0 ? in_channels : width, width, 3).stride(2)));
    seq->push_back(SyncBatchNorm2d(width));
    seq->push_back(torch::nn::ReLU());
  }
  return seq;
}

TreeNet RavenModelImpl::make_tree(std::int64_t feature_dim) {
  if (!options_.drt) return TreeNet(nullptr);
  return register_module("tree", TreeNet(TreeNetOptions(feature_dim)
                                             .label_embeddings(options_.label_embeddings)
                                             .width(options_.drt_width)));
}

torch::Tensor RavenModelImpl::with_tree(TreeNet& tree, const torch::Tensor& features,
                                        const ModelInput& input) const {
  if (!tree) return features;
  // alpha = 1 (docs/neural-reference.md#dynamic-residual-tree)
  return features + tree->forward(features, input.labels, input.indicator);
}

int load_state_dict_file(RavenModelImpl& model, const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file.string(), "", "cannot read the initial weights");
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
  c10::IValue value;
  try {
    value = torch::pickle_load(bytes);
  } catch (const std::exception& e) {
    const std::string what = e.what();
    throw InputError(
        file.string(), "",
        "not a torch.save'd dict of tensors (" + what.substr(0, what.find('\n')) + ")");
  }
  if (!value.isGenericDict())
    throw InputError(file.string(), "", "not a dict of tensors (save a plain dict of tensors)");
  std::map<std::string, torch::Tensor> given;
  for (const auto& item : value.toGenericDict()) {
    if (!item.key().isString() || !item.value().isTensor())
      throw InputError(file.string(), "", "not a dict of tensors keyed by name");
    given[item.key().toStringRef()] = item.value().toTensor();
  }
  int set = 0;
  torch::NoGradGuard no_grad;
  const auto assign = [&](const std::string& name, torch::Tensor& target, bool needed) {
    const auto found = given.find(name);
    if (found == given.end()) {
      if (needed) throw InputError(file.string(), name, "parameter missing from the weights");
      return;
    }
    if (found->second.sizes() != target.sizes())
      throw InputError(file.string(), name,
                       "shape " + shape_text(found->second.sizes()) + ", the model's " +
                           shape_text(target.sizes()));
    target.copy_(found->second);
    given.erase(found);
    ++set;
  };
  for (auto& p : model.named_parameters()) assign(p.key(), p.value(), true);
  for (auto& b : model.named_buffers()) assign(b.key(), b.value(), false);
  if (!given.empty())
    throw InputError(file.string(), given.begin()->first,
                     "no such parameter or buffer in " + display_name(model.model_options()));
  return set;
}

int uniform_batch_norm_weights(torch::nn::Module& module) {
  torch::NoGradGuard no_grad;
  int n = 0;
  for (const auto& m : module.modules())
    if (auto bn = std::dynamic_pointer_cast<SyncBatchNorm2dImpl>(m)) {
      bn->weight.uniform_(0.0, 1.0);
      ++n;
    }
  return n;
}

std::int64_t parameter_count(const torch::nn::Module& module) {
  std::int64_t n = 0;
  for (const auto& p : module.parameters()) n += p.numel();
  return n;
}

// ---- CNN_MLP (docs/neural-reference.md#cnn_mlp) -------------------------------------------------

CnnMlpImpl::CnnMlpImpl(ModelOptions options) : RavenModelImpl(std::move(options)) {
  validate(model_options());
  const std::int64_t side = conv_stack_side(resolved_image_size(model_options()));
  const std::int64_t features = 32 * side * side;  // 512 at 80x80
  conv_ = register_module("conv", conv_stack(kPanels, 32));
  tree_ = make_tree(features);
  fc1_ = register_module("fc1", linear(features, 512));
  dropout_ = register_module("dropout", torch::nn::Dropout(kDropout));
  fc2_ = register_module("fc2", linear(512, kAnswers));
}

ModelOutput CnnMlpImpl::forward(const ModelInput& input) {
  auto x = conv_->forward(input.images).flatten(1).unsqueeze(1);  // one "panel" slot
  x = with_tree(tree_, x, input).squeeze(1);
  return {fc2_(dropout_(torch::relu(fc1_(x)))), {}, {}};
}

// ---- ResNet18_MLP (docs/neural-reference.md#resnet18_mlp) ---------------------------------------

ResNet18MlpImpl::ResNet18MlpImpl(ModelOptions options) : RavenModelImpl(std::move(options)) {
  validate(model_options());
  backbone_ = register_module("resnet", ResNet18Trunk(kPanels));
  tree_ = make_tree(512);
  fc1_ = register_module("fc1", linear(512, 512));
  dropout_ = register_module("dropout", torch::nn::Dropout(kDropout));
  fc2_ = register_module("fc2", linear(512, kAnswers + kMetaTargetBits + kMetaStructureBits));
}

ModelOutput ResNet18MlpImpl::forward(const ModelInput& input) {
  auto x = backbone_->forward(input.images).unsqueeze(1);
  x = with_tree(tree_, x, input).squeeze(1);
  const auto out = fc2_(dropout_(torch::relu(fc1_(x))));
  return {out.narrow(1, 0, kAnswers), out.narrow(1, kAnswers, kMetaTargetBits),
          out.narrow(1, kAnswers + kMetaTargetBits, kMetaStructureBits)};
}

// ---- CNN_LSTM (docs/neural-reference.md#cnn_lstm) -----------------------------------------------

CnnLstmImpl::CnnLstmImpl(ModelOptions options) : RavenModelImpl(std::move(options)) {
  validate(model_options());
  conv_ = register_module("conv", conv_stack(1, 16));
  tree_ = make_tree(256);
  lstm_ =
      register_module("lstm", torch::nn::LSTM(torch::nn::LSTMOptions(256, 96).batch_first(true)));
  fc_ = register_module("fc", linear(96, kAnswers));  // the reference's Dropout(0.5) is never used
}

ModelOutput CnnLstmImpl::forward(const ModelInput& input) {
  const auto b = input.images.size(0);
  const auto side = input.images.size(2);
  auto x =
      conv_->forward(input.images.reshape({b * kPanels, 1, side, side})).view({b, kPanels, -1});
  x = with_tree(tree_, x, input);
  const auto sequence = std::get<0>(lstm_->forward(x));
  return {fc_(sequence.select(1, kPanels - 1)), {}, {}};
}

// ---- WReN (docs/neural-reference.md#wren) -------------------------------------------------------

WReNImpl::WReNImpl(ModelOptions options) : RavenModelImpl(std::move(options)) {
  validate(model_options());
  conv_ = register_module("conv", conv_stack(1, 32));
  proj_ = register_module("proj", linear(model_options().wren_tag ? 512 + 9 : 512, 256));
  tree_ = make_tree(256);
  g1_ = register_module("g1", linear(512, 512));
  g_rest_ = register_module(
      "g", torch::nn::Sequential(torch::nn::ReLU(), linear(512, 512), torch::nn::ReLU(),
                                 linear(512, 512), torch::nn::ReLU(), linear(512, 256),
                                 torch::nn::ReLU()));
  f_ = register_module("f",
                       torch::nn::Sequential(linear(256, 256), torch::nn::ReLU(), linear(256, 256),
                                             torch::nn::ReLU(), torch::nn::Dropout(kDropout),
                                             linear(256, kMetaTargetBits + 1)));
}

// Sum of g over the 80 ordered pairs of each candidate (64 context pairs with i = j included, then
// (context_j, c) and (c, context_j)), computed without materialising 640 concatenations: g's first
// layer is split into its left and right halves (W [a ; b] = W_l a + W_r b), and the 64 context
// pairs, identical for all 8 candidates, go through g once. Same function as the reference.
torch::Tensor WReNImpl::relation_sums(const torch::Tensor& panels) {
  const auto left = torch::nn::functional::linear(panels, g1_->weight.narrow(1, 0, 256));
  const auto right =
      torch::nn::functional::linear(panels, g1_->weight.narrow(1, 256, 256), g1_->bias);
  const auto lc = left.narrow(1, 0, 8), la = left.narrow(1, 8, 8);
  const auto rc = right.narrow(1, 0, 8), ra = right.narrow(1, 8, 8);
  const auto b = panels.size(0);
  const auto context =
      g_rest_->forward((lc.unsqueeze(2) + rc.unsqueeze(1)).view({b, 64, 512})).sum(1);
  const auto to_answer = lc.unsqueeze(1) + ra.unsqueeze(2);    // (B, c, j): (context_j, c)
  const auto from_answer = la.unsqueeze(2) + rc.unsqueeze(1);  // (B, c, j): (c, context_j)
  const auto answer =
      g_rest_->forward(torch::cat({to_answer, from_answer}, 2)).sum(2);  // (B, 8, 256)
  return answer + context.unsqueeze(1);
}

ModelOutput WReNImpl::forward(const ModelInput& input) {
  const auto b = input.images.size(0);
  const auto side = input.images.size(2);
  auto x =
      conv_->forward(input.images.reshape({b * kPanels, 1, side, side})).view({b, kPanels, -1});
  if (model_options().wren_tag) x = torch::cat({x, panel_tags(b, x.options())}, 2);
  x = with_tree(tree_, proj_(x),
                input);  // projection without activation (docs/neural-reference.md#wren)
  const auto out = f_->forward(relation_sums(x));  // (B, 8, 10)
  return {out.select(2, kMetaTargetBits), out.narrow(2, 0, kMetaTargetBits).sum(1), {}};
}

std::shared_ptr<RavenModelImpl> make_model(const ModelOptions& options) {
  switch (options.kind) {
    case ModelKind::kCnn: return std::make_shared<CnnMlpImpl>(options);
    case ModelKind::kResNet: return std::make_shared<ResNet18MlpImpl>(options);
    case ModelKind::kLstm: return std::make_shared<CnnLstmImpl>(options);
    case ModelKind::kWReN: return std::make_shared<WReNImpl>(options);
    case ModelKind::kPredRNet: return std::make_shared<PredRNetImpl>(options);
    case ModelKind::kScl: return std::make_shared<SclImpl>(options);
  }
  RAVE_CHECK(false, "unknown ModelKind");
  return nullptr;
}

}  // namespace rave::neural
