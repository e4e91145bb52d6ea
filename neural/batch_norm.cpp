#include "neural/batch_norm.hpp"

#include <ATen/Context.h>
#include <torch/autograd.h>

#include "neural/internal/collective.hpp"

namespace rave::neural {
namespace {

// y = sum over ranks of x; dL/dx = sum over ranks of dL/dy (every rank's loss depends on y).
class AllReduceSum : public torch::autograd::Function<AllReduceSum> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& x,
                               internal::Collective* group) {
    ctx->saved_data["group"] = reinterpret_cast<std::int64_t>(group);
    return group->sum_over_ranks(x);
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grad) {
    // The group travels through saved_data as an integer (an IValue holds no raw pointer).
    auto* group = reinterpret_cast<internal::Collective*>(  // NOLINT(performance-no-int-to-ptr)
        ctx->saved_data["group"].toInt());
    return {group->sum_over_ranks(grad[0].contiguous()), torch::Tensor()};
  }
};

}  // namespace

constexpr double kEps = 1e-5;  // PyTorch's BatchNorm2d defaults
constexpr double kMomentum = 0.1;

SyncBatchNorm2dImpl::SyncBatchNorm2dImpl(std::int64_t features) : features_(features) { reset(); }

void SyncBatchNorm2dImpl::reset() {
  weight = register_parameter("weight", torch::ones({features_}));
  bias = register_parameter("bias", torch::zeros({features_}));
  running_mean = register_buffer("running_mean", torch::zeros({features_}));
  running_var = register_buffer("running_var", torch::ones({features_}));
  num_batches_tracked = register_buffer("num_batches_tracked", torch::zeros({}, torch::kLong));
}

torch::Tensor SyncBatchNorm2dImpl::forward(const torch::Tensor& input) {
  TORCH_CHECK(input.dim() == 4, "SyncBatchNorm2d: expected a 4-d input, got ", input.dim(),
              " dimensions");
  if (group_ && is_training()) return synced(input);
  if (is_training()) num_batches_tracked.add_(1);
  return torch::batch_norm(input, weight, bias, running_mean, running_var, is_training(), kMomentum,
                           kEps, at::globalContext().userEnabledCuDNN());
}

// Two-pass statistics over the global batch (as the native kernel, for the same rounding): the
// channel sums with the sample count appended, then the centred squares.
torch::Tensor SyncBatchNorm2dImpl::synced(const torch::Tensor& input) {
  const auto x = input.to(torch::kFloat);
  const auto c = x.size(1);
  const std::vector<std::int64_t> dims{0, 2, 3};
  const auto count =
      torch::full({1}, static_cast<double>(x.numel()) / static_cast<double>(c), x.options());
  const auto sums = AllReduceSum::apply(torch::cat({x.sum(dims), count}), group_);
  const auto n = sums[c].item<double>();
  const auto mean = sums.narrow(0, 0, c) / n;
  const auto centred = x - mean.view({1, c, 1, 1});
  const auto var = AllReduceSum::apply((centred * centred).sum(dims), group_) / n;
  {
    torch::NoGradGuard no_grad;
    running_mean.mul_(1 - kMomentum).add_(mean.detach(), kMomentum);
    running_var.mul_(1 - kMomentum).add_(var.detach() * (n / std::max(n - 1, 1.0)), kMomentum);
    num_batches_tracked.add_(1);
  }
  const auto scale = torch::rsqrt(var + kEps) * weight;
  return centred * scale.view({1, c, 1, 1}) + bias.view({1, c, 1, 1});
}

void SyncBatchNorm2dImpl::pretty_print(std::ostream& stream) const {
  stream << "SyncBatchNorm2d(" << features_ << ")";
}

void set_batch_norm_group(torch::nn::Module& module, internal::Collective* group) {
  for (const auto& m : module.modules())
    if (auto bn = std::dynamic_pointer_cast<SyncBatchNorm2dImpl>(m)) bn->set_group(group);
}

}  // namespace rave::neural
