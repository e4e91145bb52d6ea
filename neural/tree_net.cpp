#include "neural/tree_net.hpp"

#include <torch/nn/functional/activation.h>
#include <torch/nn/functional/linear.h>

#include "common/error.hpp"
#include "neural/label_embeddings.hpp"

namespace rave::neural {
namespace {

namespace F = torch::nn::functional;

// One tree node: ReLU(W [e ; x] + b), computed as W_e e + W_x x + b so the label half runs once per
// sample (not once per panel feature). e is (B, 300), x is (B, P, D) or a precomputed W_x x.
torch::Tensor label_part(const torch::nn::Linear& node, const torch::Tensor& e) {
  return F::linear(e, node->weight.narrow(1, 0, kEmbeddingDim), node->bias).unsqueeze(1);
}
torch::Tensor feature_part(const torch::nn::Linear& node, const torch::Tensor& x) {
  return F::linear(x, node->weight.narrow(1, kEmbeddingDim, node->weight.size(1) - kEmbeddingDim));
}
torch::Tensor node(const torch::nn::Linear& layer, const torch::Tensor& e, const torch::Tensor& x) {
  return torch::relu(label_part(layer, e) + feature_part(layer, x));
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
  proj_ = register_module("proj", torch::nn::Linear(kEmbeddingDim, kEmbeddingDim));
  leaf_ = register_module("leaf", torch::nn::Linear(kEmbeddingDim + d, d));
  middle_ = register_module("middle", torch::nn::Linear(kEmbeddingDim + d, d));
  merge_ = register_module("merge", torch::nn::Linear(kEmbeddingDim + d, d));
  root_ = register_module("root", torch::nn::Linear(kEmbeddingDim + d, d));
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
  const auto row = [&](std::int64_t k) { return e.select(1, k); };
  const auto leaf_x = feature_part(leaf_, features);  // shared by both leaves
  const auto left_leaf = torch::relu(label_part(leaf_, row(3)) + leaf_x);
  const auto right_leaf = torch::relu(label_part(leaf_, row(5)) + leaf_x);
  const auto left = node(middle_, row(2), left_leaf);
  const auto right = node(middle_, row(4), right_leaf) * indicator.view({-1, 1, 1});
  const auto structure = node(merge_, row(1), left + right);
  return node(root_, row(0), structure);
}

}  // namespace rave::neural
