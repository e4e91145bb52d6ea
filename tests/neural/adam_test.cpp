// FusedAdam against torch's Adam: the same parameters and moments after many steps (to rounding),
// the same checkpoint state (saved by one, loaded by the other), and torch's own step where the
// fused one does not apply (weight decay).
#include <gtest/gtest.h>
#include <torch/serialize.h>

#include <sstream>
#include <stdexcept>

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
    const auto& s =
        static_cast<const torch::optim::AdamParamState&>(*adam.state().at(p.unsafeGetTensorImpl()));
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

// A moment of the wrong size (as a state loaded from another LibTorch's checkpoint can be) is
// refused before any element is updated, on the fused path, torch's path and the pieces' path.
TEST(FusedAdamTest, AWrongSizedMomentIsRefusedNotStepped) {
  for (const double decay : {0.0, 0.1}) {
    auto params = parameters();
    FusedAdam adam(params, torch::optim::AdamOptions(1e-3).weight_decay(decay));
    set_gradients(params, 0);
    adam.step();
    adam.state_of(params[3]).exp_avg(torch::zeros({7}));  // the parameter has 33 elements
    std::vector<torch::Tensor> before;
    for (const auto& p : params) before.push_back(p.detach().clone());
    set_gradients(params, 1);
    try {
      adam.step();
      ADD_FAILURE() << "stepped with a wrong-sized moment (weight decay " << decay << ")";
    } catch (const std::logic_error& e) {
      EXPECT_NE(std::string(e.what()).find("the first moment has shape [7], the parameter [33]"),
                std::string::npos)
          << e.what();
    }
    EXPECT_EQ(worst_relative(params, before), 0.0) << "a parameter moved";
    if (decay == 0.0) {
      EXPECT_THROW(adam.begin_pieces(), std::logic_error);
    }
  }
}

TEST(FusedAdamTest, StateMismatchNamesDtypeAndStepCount) {
  const auto p = torch::zeros({2, 3});
  torch::optim::AdamParamState s;
  s.exp_avg(torch::zeros({2, 3}));
  s.exp_avg_sq(torch::zeros({2, 3}, torch::kDouble));
  EXPECT_EQ(adam_state_mismatch(p, s, false),
            "the second moment is Double on cpu, the parameter Float on cpu");
  s.exp_avg_sq(torch::zeros({2, 3}));
  EXPECT_EQ(adam_state_mismatch(p, s, false), "");
  EXPECT_EQ(adam_state_mismatch(p, s, true), "the maximum second moment is missing");
  s.step(-1);
  EXPECT_EQ(adam_state_mismatch(p, s, false), "its step count is -1");
}

}  // namespace
}  // namespace rave::neural
