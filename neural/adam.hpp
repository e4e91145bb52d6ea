#pragma once
// Adam as torch::optim::Adam defines it (same options, same per-parameter state, so checkpoints
// and resume are unchanged), with the update of a contiguous float32 CPU parameter in one pass
// over its four arrays (parameter, gradient, first and second moment) instead of torch's six
// tensor operations and a temporary (the figures: bench/README.md, "Adam"). Every step first checks that each
// state tensor fits its parameter (a state loaded from another LibTorch's checkpoint may not), so
// no update reads or writes past a moment. Parameters anywhere else (CUDA), weight decay and
// amsgrad take torch's step. The arithmetic is torch's, operation by operation, without fused multiply-adds (torch's vector
// kernels fuse some), so after 50 steps a parameter agrees with torch's Adam to about a unit in
// the last place (tests/neural/adam_test.cpp), and the result is the same on every x86 CPU.
// Torch-facing: included by train_step.hpp.
//
// A data-parallel rank can instead apply the step in pieces to its share of the elements
// (Collective::reduce_and_step): begin_pieces(), update_piece() for each piece, and the moments
// of the other ranks' shares gathered before a checkpoint.
//
//   FusedAdam adam(model->parameters(), torch::optim::AdamOptions(1e-4));
//   loss.backward(); adam.step();
#include <torch/optim/adam.h>

#include <cstddef>
#include <string>
#include <vector>

namespace rave::neural {

/// "[32,1,3,3]": a tensor's shape as rave's errors print it.
std::string shape_text(c10::IntArrayRef shape);

/// Why `state` cannot be `parameter`'s Adam state ("the first moment has shape [7], the parameter
/// [33]"), or "" when it can.
std::string adam_state_mismatch(const torch::Tensor& parameter,
                                const torch::optim::AdamParamState& state, bool amsgrad);

class FusedAdam : public torch::optim::Adam {
 public:
  FusedAdam(std::vector<torch::Tensor> parameters, torch::optim::AdamOptions options);
  torch::Tensor step(LossClosure closure = nullptr) override;

  /// Starts a step in pieces over the parameters with gradients, taken as one array in order:
  /// advances each one's step count and fixes its coefficients. False, with nothing changed,
  /// where step() would not take the fused update (then call step()).
  bool begin_pieces();
  /// Elements [offset, offset + n) of that array: reads their gradients from `gradient_in_out`
  /// and writes their new values there; updates the moments; leaves the parameters as they are.
  void update_piece(std::size_t offset, float* gradient_in_out, std::size_t n);
  /// The parameters of the step begun, and their first and second moments, in that order.
  std::vector<torch::Tensor> piece_parameters() const;
  std::vector<torch::Tensor> piece_moments(int which) const;  // 1 or 2

  /// std::logic_error naming the first parameter whose state does not fit it (shape, dtype,
  /// device of each moment; adam_state_mismatch). step() and begin_pieces() call it first.
  void check_states() const;

  /// The state of `parameter`, made as torch makes it where there is none yet.
  torch::optim::AdamParamState& state_of(const torch::Tensor& parameter);

  /// Set by a caller whose pieces left the moments of other ranks' shares stale.
  bool moments_sharded = false;

  /// One parameter's step, as torch's Adam rounds it to float.
  struct Coefficients {
    float beta1, one_minus_beta1, beta2, one_minus_beta2, root_correction2, eps, minus_step_size;
  };

 private:
  struct Fused {
    torch::Tensor* parameter;
    torch::optim::AdamParamState* state;
    const torch::optim::AdamOptions* options;
  };
  struct Piece {
    float *parameter, *exp_avg, *exp_avg_sq;
    std::size_t begin, size;  // in the array of all pieces
    Coefficients c;
  };
  std::vector<Fused> fused_parameters();
  static Coefficients advance(const Fused& f);
  std::vector<Fused> pieces_of_;
  std::vector<Piece> pieces_;
};

}  // namespace rave::neural
