#include "neural/tree_net.hpp"

#include <torch/autograd.h>
#include <torch/nn/functional/activation.h>
#include <torch/nn/functional/linear.h>

#include "common/error.hpp"
#include "neural/label_embeddings.hpp"

namespace rave::neural {
namespace {

namespace F = torch::nn::functional;

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// The tree nodes of one weight at once: out[b,k] = ReLU(W [e[b,k] ; x[b,k]] + b), computed as
// W_e e + W_x x + b so the label half runs once per sample, not once per panel feature. e is
// (B, K, 300); x is (B, Kx, P, D) with Kx = K, or 1 when every k shares one x (the two leaves);
// the result is (B, K, P, Dout). One autograd node per weight, whose backward writes the gradient
// of the whole weight [W_e W_x] into one tensor: written with two narrowed uses of the weight (and
// the leaf weight used three times), autograd zero-filled a full-size gradient per use and summed
// them, about a fifth of a CNN+DRT step at batch 16, the same at any batch. Backward runs in the
// weight's dtype (under bf16 autocast the forward's products are bf16, as before).
class TreeNode : public torch::autograd::Function<TreeNode> {
 public:
  static torch::Tensor forward(AutogradContext* ctx, const torch::Tensor& e, const torch::Tensor& x,
                               const torch::Tensor& weight, const torch::Tensor& bias) {
    const auto label = F::linear(e, label_weight(weight), bias).unsqueeze(2);
    auto out = torch::relu(label + F::linear(x, feature_weight(weight)));
    ctx->save_for_backward({e, x, weight, out});
    return out;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const auto& weight = saved[2];
    const auto as_weight = [&](const torch::Tensor& t) { return t.to(weight.scalar_type()); };
    const auto e = as_weight(saved[0]), x = as_weight(saved[1]);
    const auto g = torch::threshold_backward(as_weight(grads[0]), as_weight(saved[3]), 0);
    const auto per_label = g.sum(2);                                // (B, K, Dout)
    const auto per_x = x.size(1) < g.size(1) ? g.sum(1, true) : g;  // (B, Kx, P, Dout)
    const std::int64_t out_dim = weight.size(0), label_dim = e.size(2), x_dim = x.size(3);
    auto grad_weight = torch::empty_like(weight);
    auto label_columns = grad_weight.narrow(1, 0, label_dim);  // written in place: strides (812, 1)
    auto x_columns = grad_weight.narrow(1, label_dim, x_dim);
    torch::mm_out(label_columns, per_label.reshape({-1, out_dim}).t(), e.reshape({-1, label_dim}));
    torch::mm_out(x_columns, per_x.reshape({-1, out_dim}).t(), x.reshape({-1, x_dim}));
    return {torch::matmul(per_label, label_weight(weight)),
            torch::matmul(per_x, feature_weight(weight)), grad_weight,
            per_label.sum(std::vector<std::int64_t>{0, 1})};
  }

 private:
  static torch::Tensor label_weight(const torch::Tensor& w) {
    return w.narrow(1, 0, kEmbeddingDim);
  }
  static torch::Tensor feature_weight(const torch::Tensor& w) {
    return w.narrow(1, kEmbeddingDim, w.size(1) - kEmbeddingDim);
  }
};

torch::Tensor node(const torch::nn::Linear& layer, const torch::Tensor& e, const torch::Tensor& x) {
  return TreeNode::apply(e, x, layer->weight, layer->bias);
}

}  // namespace

TreeNetImpl::TreeNetImpl(TreeNetOptions opts) : options(std::move(opts)) {
  const std::int64_t d = options.feature_dim();
  RAVE_CHECK(d > 0, "TreeNet feature_dim must be positive");
  std::vector<float> rows =
      options.label_embeddings().empty() ? glove_label_embeddings() : options.label_embeddings();
  RAVE_CHECK(rows.size() == static_cast<std::size_t>(kNumLabels) * kEmbeddingDim,
             "label table must be 22x300");
  rows.resize(rows.size() + kEmbeddingDim, 0.0f);  // the zero row for empty slots
  table_ = register_buffer("labels",
                           torch::from_blob(rows.data(), {kNumLabels + 1, kEmbeddingDim}).clone());
  const std::int64_t w = options.width() > 0 ? options.width() : d;  // inner nodes
  proj_ = register_module("proj", torch::nn::Linear(kEmbeddingDim, kEmbeddingDim));
  leaf_ = register_module("leaf", torch::nn::Linear(kEmbeddingDim + d, w));
  middle_ = register_module("middle", torch::nn::Linear(kEmbeddingDim + w, w));
  merge_ = register_module("merge", torch::nn::Linear(kEmbeddingDim + w, w));
  root_ = register_module("root", torch::nn::Linear(kEmbeddingDim + w, d));
}

// docs/neural-reference.md#dynamic-residual-tree: rows 0..5 = scene, structure, component 1, layout
// 1, component 2, layout 2. Zero rows become proj's bias (as in the reference); the indicator masks
// the right branch.
torch::Tensor TreeNetImpl::forward(const torch::Tensor& features, const torch::Tensor& labels,
                                   const torch::Tensor& indicator) {
  RAVE_CHECK(features.dim() == 3 && features.size(2) == options.feature_dim(),
             "TreeNet features must be (B,P,D)");
  const auto rows = torch::where(labels < 0, torch::full_like(labels, kNumLabels), labels);
  const auto e = proj_(table_.index_select(0, rows.reshape(-1))
                           .view({labels.size(0), labels.size(1), kEmbeddingDim}));
  const auto row = e.unbind(1);
  const auto pair = [&](int a, int b) { return torch::stack({row[a], row[b]}, 1); };
  const auto leaves = node(leaf_, pair(3, 5), features.unsqueeze(1));  // one x for both leaves
  const auto middles = node(middle_, pair(2, 4), leaves).unbind(1);
  const auto branches = middles[0] + middles[1] * indicator.view({-1, 1, 1});
  const auto structure = node(merge_, row[1].unsqueeze(1), branches.unsqueeze(1));
  return node(root_, row[0].unsqueeze(1), structure).squeeze(1);
}

}  // namespace rave::neural
