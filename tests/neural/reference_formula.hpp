#pragma once
// The formula weights and input of the public-code fixtures (scripts/neural/predrnet_reference.py
// and scl_reference.py compute the same in Python): every tensor a function of its name and shape,
// so a model whose tensors carry the public code's names gets the public code's weights.
//
//   for (auto& p : model->named_parameters()) p.value().copy_(formula(p.key(), p.value().sizes()));
//   model->forward({formula_input(3, 80), ...});
#include <torch/torch.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>

namespace rave::neural::testing {

/// Tensor `name`: 0.1 base for biases and running means, 1 + 0.5 |base| for running variances,
/// 1 + 0.1 base for other vectors (norm weights), 3 base / sqrt(fan-in) otherwise, where base is
/// sin(0.731 i + 0.37 k) over the flat index i and k the byte sum of the name mod 997.
inline torch::Tensor formula(const std::string& name, c10::IntArrayRef shape) {
  int k = 0;
  for (unsigned char c : name) k += c;
  k %= 997;
  const std::int64_t n = c10::multiply_integers(shape);
  const auto base = torch::sin(0.731 * torch::arange(n, torch::kDouble) + 0.37 * k);
  const auto ends = [&](std::string_view s) { return name.ends_with(s); };
  torch::Tensor v;
  if (ends("running_mean") || ends("bias"))
    v = 0.1 * base;
  else if (ends("running_var"))
    v = 1 + 0.5 * base.abs();
  else if (shape.size() == 1)
    v = 1 + 0.1 * base;
  else {
    const auto fan_in = n / shape[0];  // whole: n is shape[0] times the fan-in
    v = 3 * base / std::sqrt(static_cast<double>(fan_in));
  }
  return v.reshape(shape).to(torch::kFloat);
}

/// (batch, 16, side, side) grey levels: element j of panel p 127.5 (1 + sin(0.0123 j (1 + 0.37 p))).
inline torch::Tensor formula_input(std::int64_t batch, std::int64_t side) {
  const auto j = torch::arange(batch * 16 * side * side, torch::kDouble);
  const auto panel = torch::remainder(torch::floor_divide(j, side * side), 16);
  return (127.5 * (1 + torch::sin(0.0123 * j * (1 + 0.37 * panel))))
      .reshape({batch, 16, side, side})
      .to(torch::kFloat);
}

/// Sets every parameter and buffer of `module` (but num_batches_tracked) by formula().
inline void fill_by_formula(torch::nn::Module& module) {
  torch::NoGradGuard no_grad;
  for (auto& p : module.named_parameters()) p.value().copy_(formula(p.key(), p.value().sizes()));
  for (auto& b : module.named_buffers())
    if (!b.key().ends_with("num_batches_tracked"))
      b.value().copy_(formula(b.key(), b.value().sizes()));
}

}  // namespace rave::neural::testing
