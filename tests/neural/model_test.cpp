// The four baselines and the Dynamic Residual Tree: output shapes, parameter counts against the
// reference models (docs/neural-reference.md#models), the tree's pruning indicator, and the CUDA
// path (skipped without a GPU, LibTorch's `_CUDA` convention).
#include <gtest/gtest.h>
#include <torch/cuda.h>
#include <torch/nn/functional/activation.h>
#include <torch/utils.h>

#include "common/error.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/structure.hpp"
#include "neural/label_embeddings.hpp"
#include "neural/models.hpp"
#include "neural/structure_input.hpp"

namespace rave::neural {
namespace {

class ModelTest : public ::testing::Test {
 protected:
  void SetUp() override { torch::manual_seed(7); }
};

// A batch of `b` random problems with the DRT rows of `config`.
ModelInput random_input(std::int64_t b, std::int64_t side,
                        engine::ConfigId config = engine::ConfigId::kLeftRight) {
  const DrtInput drt = drt_input(engine::structure_tree(config));
  auto labels = torch::tensor(std::vector<std::int64_t>(drt.labels.begin(), drt.labels.end()))
                    .unsqueeze(0)
                    .repeat({b, 1});
  return {torch::randint(0, 256, {b, kPanels, side, side}).to(torch::kFloat), labels,
          torch::full({b}, drt.indicator)};
}

struct CountCase {
  ModelKind kind;
  bool drt;
  std::int64_t params;
};

// The four DRT counts and WReN's are the reference's (docs/neural-reference.md); the plain CNN,
// ResNet and LSTM counts are the same models minus their tree (1,755,324 at width 512, 660,668 at
// 256), and WReN+DRT adds a width-256 tree.
TEST_F(ModelTest, ParameterCountsMatchTheReference) {
  const std::vector<CountCase> cases{
      {ModelKind::kCnn, true, 2'054'724},     {ModelKind::kCnn, false, 299'400},
      {ModelKind::kResNet, true, 13'254'754}, {ModelKind::kResNet, false, 11'499'430},
      {ModelKind::kLstm, true, 804'628},      {ModelKind::kLstm, false, 143'960},
      {ModelKind::kWReN, false, 1'215'402},   {ModelKind::kWReN, true, 1'876'070},
  };
  for (const auto& c : cases) {
    const auto model = make_model({.kind = c.kind, .drt = c.drt});
    EXPECT_EQ(parameter_count(*model), c.params) << display_name(model->model_options());
  }
  EXPECT_EQ(parameter_count(*TreeNet(TreeNetOptions(512))), 1'755'324);
  EXPECT_EQ(parameter_count(*TreeNet(TreeNetOptions(256))), 660'668);
  EXPECT_EQ(parameter_count(*make_model({.kind = ModelKind::kWReN, .wren_tag = false})), 1'213'098);
}

TEST_F(ModelTest, OutputShapes) {
  for (auto kind : {ModelKind::kCnn, ModelKind::kResNet, ModelKind::kLstm, ModelKind::kWReN}) {
    for (bool drt : {false, true}) {
      const ModelOptions options{.kind = kind, .drt = drt, .image_size = 80};
      const auto model = make_model(options);
      model->eval();
      torch::NoGradGuard no_grad;
      const auto out = model->forward(random_input(3, 80));
      SCOPED_TRACE(display_name(options));
      EXPECT_EQ(out.answer.sizes(), (std::vector<std::int64_t>{3, 8}));
      EXPECT_EQ(out.meta_target.defined(), kind == ModelKind::kResNet || kind == ModelKind::kWReN);
      if (out.meta_target.defined()) {
        EXPECT_EQ(out.meta_target.sizes(), (std::vector<std::int64_t>{3, 9}));
      }
      EXPECT_EQ(out.meta_structure.defined(), kind == ModelKind::kResNet);
      if (out.meta_structure.defined()) {
        EXPECT_EQ(out.meta_structure.sizes(), (std::vector<std::int64_t>{3, 21}));
      }
      EXPECT_TRUE(torch::isfinite(out.answer).all().item<bool>());
    }
  }
}

TEST_F(ModelTest, ResNetAtTheReferenceSize) {
  const auto model = make_model({.kind = ModelKind::kResNet, .drt = true});
  model->eval();
  torch::NoGradGuard no_grad;
  EXPECT_EQ(model->forward(random_input(1, 224)).answer.sizes(), (std::vector<std::int64_t>{1, 8}));
}

TEST_F(ModelTest, UnsupportedSizesAreUsageErrors) {
  EXPECT_THROW(make_model({.kind = ModelKind::kCnn, .image_size = 64}), UsageError);
  EXPECT_THROW(make_model({.kind = ModelKind::kResNet, .image_size = 16}), UsageError);
}

// With indicator 0 the right branch (rows 4 and 5) cannot influence the output; with 1 it does.
TEST_F(ModelTest, IndicatorMasksTheSecondBranch) {
  TreeNet tree(TreeNetOptions(32));
  const auto features = torch::randn({4, 3, 32});
  auto labels = torch::tensor({0, 4, 9, 19, 10, 21}, torch::kLong).unsqueeze(0).repeat({4, 1});
  auto other = labels.clone();
  other.select(1, 4).fill_(7);
  other.select(1, 5).fill_(16);
  const auto off = torch::zeros({4});
  const auto on = torch::ones({4});
  EXPECT_TRUE(torch::equal(tree(features, labels, off), tree(features, other, off)));
  EXPECT_FALSE(torch::allclose(tree(features, labels, on), tree(features, other, on)));
  // The left branch always counts.
  auto left = labels.clone();
  left.select(1, 3).fill_(12);
  EXPECT_FALSE(torch::allclose(tree(features, labels, off), tree(features, left, off)));
}

// The tree is a per-sample function: a sample's output does not depend on the rest of the batch.
TEST_F(ModelTest, TreeIsPerSample) {
  TreeNet tree(TreeNetOptions(16));
  const auto features = torch::randn({2, 5, 16});
  const auto labels = torch::tensor({{0, 1, 11, 12, -1, -1}, {0, 4, 9, 19, 10, 21}}, torch::kLong);
  const auto ind = torch::tensor({0.0f, 1.0f});
  const auto both = tree(features, labels, ind);
  const auto second = tree(features.narrow(0, 1, 1), labels.narrow(0, 1, 1), ind.narrow(0, 1, 1));
  EXPECT_TRUE(torch::allclose(both.narrow(0, 1, 1), second, 1e-5, 1e-6));
}

// The tree written as the reference writes it: each node one Linear over the concatenation [label
// row ; feature], the row repeated for every panel feature; the module must compute the same
// output and the same gradients (its fused nodes split that Linear in two).
torch::Tensor reference_tree(TreeNet& tree, const torch::Tensor& features,
                             const torch::Tensor& labels, const torch::Tensor& indicator) {
  auto p = tree->named_parameters();
  const auto table = tree->named_buffers()["labels"];
  const auto rows = torch::where(labels < 0, torch::full_like(labels, kNumLabels), labels);
  const auto e = torch::nn::functional::linear(
      table.index_select(0, rows.reshape(-1)).view({labels.size(0), 6, kEmbeddingDim}),
      p["proj.weight"], p["proj.bias"]);
  const auto node = [&](const std::string& name, std::int64_t k, const torch::Tensor& x) {
    const auto row = e.select(1, k).unsqueeze(1).expand({x.size(0), x.size(1), kEmbeddingDim});
    return torch::relu(torch::nn::functional::linear(torch::cat({row, x}, 2), p[name + ".weight"],
                                                     p[name + ".bias"]));
  };
  const auto left = node("middle", 2, node("leaf", 3, features));
  const auto right = node("middle", 4, node("leaf", 5, features)) * indicator.view({-1, 1, 1});
  return node("root", 0, node("merge", 1, left + right));
}

TEST_F(ModelTest, TreeMatchesTheConcatenatedLinearsWithGradients) {
  TreeNet tree(TreeNetOptions(24));
  tree->to(torch::kDouble);
  const auto labels = torch::tensor(
      {{0, 1, 11, 12, -1, -1}, {0, 4, 9, 19, 10, 21}, {0, 2, 5, 14, 6, 15}}, torch::kLong);
  const auto indicator = torch::tensor({0.0, 1.0, 1.0}, torch::kDouble);
  const auto features = torch::randn({3, 5, 24}, torch::kDouble).requires_grad_(true);
  const auto probe = torch::randn({3, 5, 24}, torch::kDouble);
  std::vector<std::vector<torch::Tensor>> grads;
  std::vector<torch::Tensor> outputs;
  for (bool reference : {false, true}) {
    tree->zero_grad();
    features.mutable_grad() = torch::Tensor();
    auto out = reference ? reference_tree(tree, features, labels, indicator)
                         : tree(features, labels, indicator);
    (out * probe).sum().backward();
    outputs.push_back(out.detach());
    grads.push_back({features.grad().clone()});
    for (const auto& param : tree->parameters()) grads.back().push_back(param.grad().clone());
  }
  EXPECT_TRUE(torch::allclose(outputs[0], outputs[1], 1e-12, 1e-12));
  ASSERT_EQ(grads[0].size(), 11u);  // features, proj, leaf, middle, merge, root (weight, bias)
  for (std::size_t i = 0; i < grads[0].size(); ++i) {
    EXPECT_TRUE(torch::allclose(grads[0][i], grads[1][i], 1e-10, 1e-12)) << "gradient " << i;
    EXPECT_GT(grads[0][i].abs().sum().item<double>(), 0) << "gradient " << i;
  }
}

TEST_F(ModelTest, WReNRelationSumEqualsTheExplicitPairs) {
  // The factored relation module must equal g summed over 80 explicit concatenated pairs.
  torch::manual_seed(3);
  WReN model(ModelOptions{.kind = ModelKind::kWReN});
  model->eval();
  torch::NoGradGuard no_grad;
  const auto input = random_input(2, 80);
  const auto out = model->forward(input).answer;
  EXPECT_EQ(out.sizes(), (std::vector<std::int64_t>{2, 8}));
  // Recompute through named submodules with explicit pairs.
  auto params = model->named_modules();
  auto conv = params["conv"]->as<torch::nn::Sequential>();
  auto proj = params["proj"]->as<torch::nn::Linear>();
  auto g1 = params["g1"]->as<torch::nn::Linear>();
  auto g = params["g"]->as<torch::nn::Sequential>();
  auto f = params["f"]->as<torch::nn::Sequential>();
  auto x = conv->forward(input.images.reshape({2 * 16, 1, 80, 80})).view({2, 16, -1});
  auto tags = torch::zeros({16, 9});
  for (int i = 0; i < 16; ++i) tags[i][std::min(i, 8)] = 1;
  auto e = proj->forward(torch::cat({x, tags.unsqueeze(0).expand({2, 16, 9})}, 2));
  std::vector<torch::Tensor> scores;
  for (int c = 0; c < 8; ++c) {
    std::vector<torch::Tensor> pairs;
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) pairs.push_back(torch::cat({e.select(1, i), e.select(1, j)}, 1));
    for (int j = 0; j < 8; ++j)
      pairs.push_back(torch::cat({e.select(1, j), e.select(1, 8 + c)}, 1));
    for (int j = 0; j < 8; ++j)
      pairs.push_back(torch::cat({e.select(1, 8 + c), e.select(1, j)}, 1));
    auto sum = g->forward(g1->forward(torch::stack(pairs, 1))).sum(1);
    scores.push_back(f->forward(sum).select(1, 9));
  }
  EXPECT_TRUE(torch::allclose(out, torch::stack(scores, 1), 1e-3, 1e-4));
}

TEST_F(ModelTest, ForwardOnCuda_CUDA) {
  if (!torch::cuda::is_available())
    GTEST_SKIP() << "no CUDA device (or LibTorch built without CUDA)";
  const auto model = make_model({.kind = ModelKind::kCnn, .drt = true});
  model->to(torch::kCUDA);
  auto in = random_input(2, 80);
  const auto out = model->forward({in.images.cuda(), in.labels.cuda(), in.indicator.cuda()});
  EXPECT_TRUE(out.answer.is_cuda());
}

}  // namespace
}  // namespace rave::neural
