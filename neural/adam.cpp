#include "neural/adam.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "common/error.hpp"

namespace rave::neural {
namespace {

// m = m b1 + (1-b1) g; v = v b2 + (1-b2) g g; p += -step (m / (sqrt(v) / sqrt(c2) + eps)), in the
// order torch's mul_, add_, addcmul_, sqrt, div, add_ and addcdiv_ evaluate them. The file is
// built with -ffp-contract=off (no fused multiply-adds) and -fno-math-errno (sqrt vectorises);
// the AVX2 clone only widens the lanes, so every clone rounds alike. The new parameter goes to
// `out`, which may be `p` or `g` itself (element i is read before it is written).
using Coefficients = FusedAdam::Coefficients;

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx2", "default")))
#endif
void update(const float* p, const float* g, float* __restrict m, float* __restrict v, float* out,
            std::size_t n, Coefficients c) {
#pragma GCC ivdep
  for (std::size_t i = 0; i < n; ++i) {
    const float gi = g[i];
    m[i] = m[i] * c.beta1 + c.one_minus_beta1 * gi;
    v[i] = v[i] * c.beta2 + c.one_minus_beta2 * gi * gi;
    const float denom = std::sqrt(v[i]) / c.root_correction2 + c.eps;
    out[i] = p[i] + c.minus_step_size * m[i] / denom;
  }
}

bool dense_float_cpu(const torch::Tensor& t) {
  return t.defined() && t.device().is_cpu() && t.scalar_type() == torch::kFloat &&
         t.is_contiguous() && !t.is_sparse();
}

// Why `moment` cannot be the named moment of `p` ("" when it can).
std::string moment_mismatch(const char* name, const torch::Tensor& moment, const torch::Tensor& p) {
  if (!moment.defined()) return std::string(name) + " is missing";
  if (moment.sizes() != p.sizes())
    return std::string(name) + " has shape " + shape_text(moment.sizes()) + ", the parameter " +
           shape_text(p.sizes());
  if (moment.scalar_type() != p.scalar_type() || moment.device() != p.device())
    return std::string(name) + " is " + std::string(c10::toString(moment.scalar_type())) + " on " +
           moment.device().str() + ", the parameter " +
           std::string(c10::toString(p.scalar_type())) + " on " + p.device().str();
  return "";
}

}  // namespace

std::string shape_text(c10::IntArrayRef shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

std::string adam_state_mismatch(const torch::Tensor& p, const torch::optim::AdamParamState& s,
                                bool amsgrad) {
  if (s.step() < 0) return "its step count is " + std::to_string(s.step());
  if (auto why = moment_mismatch("the first moment", s.exp_avg(), p); !why.empty()) return why;
  if (auto why = moment_mismatch("the second moment", s.exp_avg_sq(), p); !why.empty()) return why;
  return amsgrad ? moment_mismatch("the maximum second moment", s.max_exp_avg_sq(), p) : "";
}

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

void FusedAdam::check_states() const {
  for (const auto& group : param_groups_) {
    const bool amsgrad = static_cast<const torch::optim::AdamOptions&>(group.options()).amsgrad();
    for (const auto& p : group.params()) {
      const auto it = state_.find(p.unsafeGetTensorImpl());
      if (it == state_.end() || !p.grad().defined()) continue;
      const auto why = adam_state_mismatch(
          p, static_cast<const torch::optim::AdamParamState&>(*it->second), amsgrad);
      RAVE_CHECK(why.empty(), "Adam: the state of a " + shape_text(p.sizes()) +
                                  " parameter does not fit it: " + why);
    }
  }
}

torch::optim::AdamParamState& FusedAdam::state_of(const torch::Tensor& p) {
  auto& slot = state_[p.unsafeGetTensorImpl()];
  if (!slot) {  // as torch initialises it
    auto s = std::make_unique<torch::optim::AdamParamState>();
    s->step(0);
    s->exp_avg(torch::zeros_like(p, torch::MemoryFormat::Preserve));
    s->exp_avg_sq(torch::zeros_like(p, torch::MemoryFormat::Preserve));
    slot = std::move(s);
  }
  return static_cast<torch::optim::AdamParamState&>(*slot);
}

// Advances the parameter's step count; the coefficients as torch's Adam rounds them to float.
FusedAdam::Coefficients FusedAdam::advance(const Fused& f) {
  const auto [beta1, beta2] = f.options->betas();
  f.state->step(f.state->step() + 1);
  const double correction1 = 1 - std::pow(beta1, static_cast<double>(f.state->step()));
  const double correction2 = 1 - std::pow(beta2, static_cast<double>(f.state->step()));
  return {static_cast<float>(beta1),
          static_cast<float>(1 - beta1),
          static_cast<float>(beta2),
          static_cast<float>(1 - beta2),
          static_cast<float>(std::sqrt(correction2)),
          static_cast<float>(f.options->eps()),
          static_cast<float>(-(f.options->lr() / correction1))};
}

torch::Tensor FusedAdam::step(LossClosure closure) {
  torch::NoGradGuard no_grad;
  torch::Tensor loss;
  if (closure) {
    at::AutoGradMode enable_grad(true);
    loss = closure();
  }
  check_states();
  const auto fused = fused_parameters();
  if (fused.empty()) {
    torch::optim::Adam::step(nullptr);
    return loss;
  }
  for (const auto& f : fused) {
    float* p = f.parameter->data_ptr<float>();
    update(p, f.parameter->grad().data_ptr<float>(), f.state->exp_avg().data_ptr<float>(),
           f.state->exp_avg_sq().data_ptr<float>(), p,
           static_cast<std::size_t>(f.parameter->numel()), advance(f));
  }
  return loss;
}

bool FusedAdam::begin_pieces() {
  check_states();
  pieces_of_ = fused_parameters();
  pieces_.clear();
  std::size_t begin = 0;
  for (const auto& f : pieces_of_) {
    const auto size = static_cast<std::size_t>(f.parameter->numel());
    pieces_.push_back({f.parameter->data_ptr<float>(), f.state->exp_avg().data_ptr<float>(),
                       f.state->exp_avg_sq().data_ptr<float>(), begin, size, advance(f)});
    begin += size;
  }
  return !pieces_.empty();
}

void FusedAdam::update_piece(std::size_t offset, float* gradient_in_out, std::size_t n) {
  auto it = std::upper_bound(pieces_.begin(), pieces_.end(), offset,
                             [](std::size_t at, const Piece& p) { return at < p.begin; });
  RAVE_CHECK(it != pieces_.begin() && offset + n <= pieces_.back().begin + pieces_.back().size,
             "update_piece: elements outside the step");
  for (--it; n > 0; ++it) {
    const std::size_t at = offset - it->begin, k = std::min(n, it->size - at);
    update(it->parameter + at, gradient_in_out, it->exp_avg + at, it->exp_avg_sq + at,
           gradient_in_out, k, it->c);
    gradient_in_out += k, offset += k, n -= k;
  }
}

std::vector<torch::Tensor> FusedAdam::piece_parameters() const {
  std::vector<torch::Tensor> out;
  for (const auto& f : pieces_of_) out.push_back(*f.parameter);
  return out;
}

std::vector<torch::Tensor> FusedAdam::piece_moments(int which) const {
  std::vector<torch::Tensor> out;
  for (const auto& f : pieces_of_)
    out.push_back(which == 1 ? f.state->exp_avg() : f.state->exp_avg_sq());
  return out;
}

}  // namespace rave::neural
