// FusedAdam against torch's Adam: the same parameters and moments after many steps (to rounding),
// the same checkpoint state (saved by one, loaded by the other), and torch's own step where the
// fused one does not apply (weight decay).
#include <gtest/gtest.h>
#include <torch/serialize.h>

#include <sstream>

#include "neural/adam.hpp"

namespace rave::neural {
namespace {

// Parameters of sizes that do and do not fill whole vector lanes, with gradients of mixed scale.
std::vector<torch::Tensor> parameters() {
  torch::manual_seed(3);
  std::vector<torch::Tensor> out;
  for (std::int64_t n : {1, 7, 8, 33, 4099}) out.push_back(torch::randn({n}).requires_grad_(true));
  out.push_back(torch::randn({5, 13}).requires_grad_(true));
  return out;
}

void set_gradients(std::vector<torch::Tensor>& params, int step) {
  torch::manual_seed(100 + step);
  for (auto& p : params) p.mutable_grad() = torch::randn_like(p) * std::pow(10.0, step % 5 - 3);
}

// The largest difference of two lists of tensors, each relative to the largest magnitude in its
// tensor (moments near zero differ by rounding far below their tensor's scale).
double worst_relative(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, (a[i] - b[i]).abs().max().item<double>() /
                                std::max(b[i].abs().max().item<double>(), 1e-30));
  return worst;
}

std::vector<torch::Tensor> moments(torch::optim::Optimizer& adam,
                                   const std::vector<torch::Tensor>& params) {
  std::vector<torch::Tensor> out;
  for (const auto& p : params) {
    std::ostringstream key;
    key << p.unsafeGetTensorImpl();
    const auto& s = static_cast<const torch::optim::AdamParamState&>(*adam.state().at(key.str()));
    out.push_back(s.exp_avg());
    out.push_back(s.exp_avg_sq());
  }
  return out;
}

TEST(FusedAdamTest, StepsLikeTorchsAdam) {
  auto ours = parameters(), theirs = parameters();
  const auto options = torch::optim::AdamOptions(3e-3).betas({0.8, 0.99}).eps(1e-6);
  FusedAdam fused(ours, options);
  torch::optim::Adam reference(theirs, options);
  const auto start = parameters();
  for (int step = 0; step < 50; ++step) {
    set_gradients(ours, step);
    set_gradients(theirs, step);
    fused.step();
    reference.step();
  }
  EXPECT_LT(worst_relative(ours, theirs), 1e-6);  // measured: 6e-8, about an ulp
  EXPECT_LT(worst_relative(moments(fused, ours), moments(reference, theirs)), 1e-6);
  EXPECT_GT(worst_relative(ours, start), 1e-2);  // the parameters moved
}

TEST(FusedAdamTest, ItsStateIsTorchsCheckpointState) {
  auto ours = parameters(), theirs = parameters();
  FusedAdam fused(ours, torch::optim::AdamOptions(1e-3));
  for (int step = 0; step < 3; ++step) set_gradients(ours, step), fused.step();
  std::stringstream saved;
  torch::save(fused, saved);
  torch::optim::Adam reference(theirs, torch::optim::AdamOptions(1e-3));
  torch::load(reference, saved);
  EXPECT_EQ(worst_relative(moments(reference, theirs), moments(fused, ours)), 0.0);
  // And back: torch's state resumes in FusedAdam.
  std::stringstream again;
  torch::save(reference, again);
  auto more = parameters();
  FusedAdam resumed(more, torch::optim::AdamOptions(1e-3));
  torch::load(resumed, again);
  EXPECT_EQ(worst_relative(moments(resumed, more), moments(fused, ours)), 0.0);
}

TEST(FusedAdamTest, WeightDecayTakesTorchsStep) {
  auto ours = parameters(), theirs = parameters();
  const auto options = torch::optim::AdamOptions(1e-3).weight_decay(0.1);
  FusedAdam fused(ours, options);
  torch::optim::Adam reference(theirs, options);
  for (int step = 0; step < 5; ++step) {
    set_gradients(ours, step);
    set_gradients(theirs, step);
    fused.step();
    reference.step();
  }
  EXPECT_EQ(worst_relative(ours, theirs), 0.0);
}

}  // namespace
}  // namespace rave::neural
