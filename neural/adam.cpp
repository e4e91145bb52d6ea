#include "neural/adam.hpp"

#include <cmath>
#include <sstream>
#include <type_traits>

namespace rave::neural {
namespace {

// The coefficients of one parameter's step, as torch's Adam rounds them to float.
struct Coefficients {
  float beta1, one_minus_beta1, beta2, one_minus_beta2, root_correction2, eps, minus_step_size;
};

// m = m b1 + (1-b1) g; v = v b2 + (1-b2) g g; p += -step (m / (sqrt(v) / sqrt(c2) + eps)), in the
// order torch's mul_, add_, addcmul_, sqrt, div, add_ and addcdiv_ evaluate them. The file is
// built with -ffp-contract=off (no fused multiply-adds) and -fno-math-errno (sqrt vectorises);
// the AVX2 clone only widens the lanes, so every clone rounds alike.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
void update(float* __restrict p, const float* __restrict g, float* __restrict m,
            float* __restrict v, std::size_t n, Coefficients c) {
  for (std::size_t i = 0; i < n; ++i) {
    m[i] = m[i] * c.beta1 + c.one_minus_beta1 * g[i];
    v[i] = v[i] * c.beta2 + c.one_minus_beta2 * g[i] * g[i];
    const float denom = std::sqrt(v[i]) / c.root_correction2 + c.eps;
    p[i] = p[i] + c.minus_step_size * m[i] / denom;
  }
}

bool dense_float_cpu(const torch::Tensor& t) {
  return t.defined() && t.device().is_cpu() && t.scalar_type() == torch::kFloat &&
         t.is_contiguous() && !t.is_sparse();
}

// torch's key of a parameter's state: the text of its TensorImpl address (LibTorch 1.13) or the
// address itself.
template <typename Key>
Key state_key(const torch::Tensor& p) {
  if constexpr (std::is_same_v<Key, std::string>) {
    std::ostringstream text;
    text << p.unsafeGetTensorImpl();
    return text.str();
  } else {
    return static_cast<Key>(p.unsafeGetTensorImpl());
  }
}

}  // namespace

FusedAdam::FusedAdam(std::vector<torch::Tensor> parameters, torch::optim::AdamOptions options)
    : torch::optim::Adam(std::move(parameters), std::move(options)) {}

// Every parameter with a gradient and its state (made as torch makes it, so torch's step finds
// the same), or nothing when one of them is not for the fused update.
std::vector<FusedAdam::Fused> FusedAdam::fused_parameters() {
  std::vector<Fused> out;
  for (auto& group : param_groups_) {
    const auto& o = static_cast<const torch::optim::AdamOptions&>(group.options());
    if (o.weight_decay() != 0 || o.amsgrad()) return {};
    for (auto& p : group.params()) {
      if (!p.grad().defined()) continue;
      auto& s = state_of(p);
      if (!dense_float_cpu(p) || !dense_float_cpu(p.grad()) || !dense_float_cpu(s.exp_avg()) ||
          !dense_float_cpu(s.exp_avg_sq()))
        return {};
      out.push_back({&p, &s, &o});
    }
  }
  return out;
}

torch::optim::AdamParamState& FusedAdam::state_of(const torch::Tensor& p) {
  auto& slot = state_[state_key<std::decay_t<decltype(state_)>::key_type>(p)];
  if (!slot) {  // as torch initialises it
    auto s = std::make_unique<torch::optim::AdamParamState>();
    s->step(0);
    s->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
    s->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
    slot = std::move(s);
  }
  return static_cast<torch::optim::AdamParamState&>(*slot);
}

torch::Tensor FusedAdam::step(LossClosure closure) {
  torch::NoGradGuard no_grad;
  torch::Tensor loss;
  if (closure) {
    at::AutoGradMode enable_grad(true);
    loss = closure();
  }
  const auto fused = fused_parameters();
  if (fused.empty()) {
    torch::optim::Adam::step(nullptr);
    return loss;
  }
  for (const auto& [p, s, o] : fused) {
    const auto [beta1, beta2] = o->betas();
    s->step(s->step() + 1);
    const double correction1 = 1 - std::pow(beta1, static_cast<double>(s->step()));
    const double correction2 = 1 - std::pow(beta2, static_cast<double>(s->step()));
    const Coefficients c{static_cast<float>(beta1),
                         static_cast<float>(1 - beta1),
                         static_cast<float>(beta2),
                         static_cast<float>(1 - beta2),
                         static_cast<float>(std::sqrt(correction2)),
                         static_cast<float>(o->eps()),
                         static_cast<float>(-(o->lr() / correction1))};
    update(p->data_ptr<float>(), p->grad().data_ptr<float>(), s->exp_avg().data_ptr<float>(),
           s->exp_avg_sq().data_ptr<float>(), static_cast<std::size_t>(p->numel()), c);
  }
  return loss;
}

}  // namespace rave::neural
