#pragma once
// The Dynamic Residual Tree (DRT) of the RAVEN paper
// (docs/neural-reference.md#dynamic-residual-tree), LibTorch module: the maximal A-SIG tree Scene >
// Structure > 2 x (Component > Layout) evaluated bottom-up over an image feature, each node a
// Linear over [label embedding ; child feature] with ReLU, the right branch multiplied by the
// per-problem indicator (pruned for one-component configurations). Left and right branches share
// the leaf and middle weights. The label table is a fixed buffer (not trained). Torch-facing:
// included by neural/*.cpp, tests and rave-bench only.
//
//   TreeNet tree(TreeNetOptions(/*feature_dim=*/512));
//   auto out = tree(features, labels, indicator);   // (B,P,512), (B,6) int64, (B) float
//   features = features + out;                      // the residual add is the caller's
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include <vector>

#include "neural/options.hpp"

namespace rave::neural {

/// Options of a TreeNet.
struct TreeNetOptions {
  /// A tree over image features of width `feature_dim` (512 for CNN/ResNet, 256 for LSTM/WReN).
  explicit TreeNetOptions(std::int64_t feature_dim) : feature_dim_(feature_dim) {}
  TORCH_ARG(std::int64_t, feature_dim);
  /// kNumLabels x kEmbeddingDim row-major label vectors; empty = glove_label_embeddings().
  TORCH_ARG(std::vector<float>, label_embeddings) = {};
  /// Width of the inner nodes (leaf, middle, merge); the root maps back to feature_dim. 0 =
  /// feature_dim, the reference's tree (every node of width feature_dim).
  TORCH_ARG(std::int64_t, width) = 0;
};

/// DRT module; every node kind has one set of weights, registered in the constructor.
class TreeNetImpl : public torch::nn::Module {
 public:
  explicit TreeNetImpl(TreeNetOptions options);
  /// features (B, P, D); labels (B, 6) int64 rows into kLabelNames, -1 = empty; indicator (B).
  /// Returns the tree output, shaped like `features` (same 6 rows for all P features of a sample).
  torch::Tensor forward(const torch::Tensor& features, const torch::Tensor& labels,
                        const torch::Tensor& indicator);

  TreeNetOptions options;

 private:
  torch::Tensor table_;  ///< (kNumLabels + 1, 300) buffer; the last row is the zero row
  torch::nn::Linear proj_{nullptr}, leaf_{nullptr}, middle_{nullptr}, merge_{nullptr},
      root_{nullptr};
};
TORCH_MODULE(TreeNet);

}  // namespace rave::neural
