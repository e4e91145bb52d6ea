#pragma once
// Adam as torch::optim::Adam defines it (same options, same per-parameter state, so checkpoints
// and resume are unchanged), with the update of a contiguous float32 CPU parameter in one pass
// over its four arrays (parameter, gradient, first and second moment) instead of torch's six
// tensor operations and a temporary: 3.7-4.4 ms of a CNN+DRT step on one thread (2.05 M
// parameters), a cost that does not shrink with the batch and so weighs most on data-parallel
// ranks. Parameters anywhere else (CUDA), weight decay and amsgrad take torch's step. The
// arithmetic is torch's, operation by operation, without fused multiply-adds (torch's vector
// kernels fuse some), so after 50 steps a parameter agrees with torch's Adam to about a unit in
// the last place (tests/neural/adam_test.cpp), and the result is the same on every x86 CPU.
// Torch-facing: included by training.hpp.
//
//   FusedAdam adam(model->parameters(), torch::optim::AdamOptions(1e-4));
//   loss.backward(); adam.step();
#include <torch/optim/adam.h>

#include <vector>

namespace rave::neural {

class FusedAdam : public torch::optim::Adam {
 public:
  FusedAdam(std::vector<torch::Tensor> parameters, torch::optim::AdamOptions options);
  torch::Tensor step(LossClosure closure = nullptr) override;

 private:
  struct Fused {
    torch::Tensor* parameter;
    torch::optim::AdamParamState* state;
    const torch::optim::AdamOptions* options;
  };
  std::vector<Fused> fused_parameters();
  torch::optim::AdamParamState& state_of(const torch::Tensor& parameter);
};

}  // namespace rave::neural
