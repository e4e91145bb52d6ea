// The evaluation pass (internal/eval_pass.hpp), AccuracyByConfig and `rave eval`'s evaluate
// (epoch_loop.hpp).
#include "neural/internal/eval_pass.hpp"

#include <ATen/Context.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <thread>

#include "common/error.hpp"
#include "neural/internal/checkpoint.hpp"
#include "neural/internal/collective.hpp"

namespace rave::neural {
namespace fs = std::filesystem;
namespace internal {
namespace {

ProblemScores problem_scores(const DataFile& file, const float* logits) {
  ProblemScores p{.file = file.path, .config = file.config, .logits = {}, .answer = 0};
  std::copy(logits, logits + p.logits.size(), p.logits.begin());
  p.answer =
      static_cast<int>(std::max_element(p.logits.begin(), p.logits.end()) - p.logits.begin());
  return p;
}

void reduce(Collective* group, EvalTotals& e) {
  if (!group) return;
  std::vector<double> v{e.loss_sum};
  for (auto n : e.accuracy.correct) v.push_back(static_cast<double>(n));
  for (auto n : e.accuracy.total) v.push_back(static_cast<double>(n));
  auto t = torch::tensor(v, torch::kDouble);
  t = group->sum_over_ranks(t);
  e.loss_sum = t[0].item<double>();
  for (std::size_t c = 0; c < e.accuracy.correct.size(); ++c) {
    e.accuracy.correct[c] =
        static_cast<std::int64_t>(t[static_cast<std::int64_t>(1 + c)].item<double>());
    e.accuracy.total[c] = static_cast<std::int64_t>(
        t[static_cast<std::int64_t>(1 + engine::kNumConfigs + c)].item<double>());
  }
}

}  // namespace

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

PhaseMeter::PhaseMeter(std::string_view phase, int epoch, int epochs, std::size_t steps,
                       const ProgressFn& report)
    : report_(report), start_(Clock::now()) {
  progress_ = {phase, epoch, epochs, 0, steps, 0, 0, 0, 0};
}

void PhaseMeter::add(const StepStats& s) {
  totals_.loss += s.loss;
  totals_.correct += s.correct;
  totals_.problems += s.problems;
  ++progress_.step;
  if (!report_) return;
  const double elapsed = seconds();
  const auto n = static_cast<double>(std::max<std::int64_t>(totals_.problems, 1));
  progress_.loss = totals_.loss / n;
  progress_.accuracy = static_cast<double>(totals_.correct) / n;
  progress_.rate = elapsed > 0 ? static_cast<double>(totals_.problems) / elapsed : 0.0;
  progress_.eta_seconds = elapsed / static_cast<double>(progress_.step) *
                          static_cast<double>(progress_.steps - progress_.step);
  report_(progress_);
}

double mean(double sum, std::int64_t n) { return n ? sum / static_cast<double>(n) : 0.0; }

void reduce(Collective* group, StepStats& s) {
  if (!group) return;
  auto t = torch::tensor({s.loss, static_cast<double>(s.correct), static_cast<double>(s.problems)},
                         torch::kDouble);
  t = group->sum_over_ranks(t);
  s = {t[0].item<double>(), static_cast<std::int64_t>(t[1].item<double>()),
       static_cast<std::int64_t>(t[2].item<double>())};
}

EvalTotals evaluate_files(RavenModelImpl& model, const std::vector<DataFile>& files,
                          const PipelineOptions& options, const EvalPass& pass,
                          const Progress& label, const ProgressFn& progress, ProblemCache* cache) {
  BatchStream stream(files, options, 0, cache);
  PhaseMeter meter(label.phase, label.epoch, label.epochs, stream.size(), progress);
  EvalTotals out;
  std::vector<std::uint8_t> right;
  std::vector<float> logits;
  while (auto batch = stream.next()) {
    meter.add(eval_step(model, to_tensors(*batch, pass.device), &right, pass.precision,
                        pass.keep_scores ? &logits : nullptr));
    for (std::size_t i = 0; i < right.size(); ++i) {
      const auto c = static_cast<std::size_t>(batch->configs[i]);
      out.accuracy.correct[c] += right[i];
      ++out.accuracy.total[c];
      if (pass.keep_scores)
        out.predictions.push_back(
            problem_scores(files[batch->positions[i]], &logits[kAnswerLogits * i]));
    }
  }
  out.loss_sum = meter.totals().loss;
  reduce(pass.group, out);
  return out;
}

int threads_or_hardware(int threads) {
  return threads > 0 ? threads
                     : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace internal

double AccuracyByConfig::accuracy(engine::ConfigId config) const {
  const auto i = static_cast<std::size_t>(engine::config_index(config));
  return total[i] ? static_cast<double>(correct[i]) / static_cast<double>(total[i]) : std::nan("");
}

double AccuracyByConfig::overall() const {
  std::int64_t c = 0, t = 0;
  for (std::size_t i = 0; i < total.size(); ++i) c += correct[i], t += total[i];
  return t ? static_cast<double>(c) / static_cast<double>(t) : std::nan("");
}

std::int64_t AccuracyByConfig::problems() const {
  std::int64_t t = 0;
  for (auto n : total) t += n;
  return t;
}

CheckpointInfo read_checkpoint_info(const fs::path& checkpoint) {
  return internal::open_checkpoint(checkpoint).info;
}

EvalResult evaluate(const EvalOptions& o, const ProgressFn& progress) {
  if (o.batch_size < 1) throw UsageError("batch size must be at least 1");
  set_compute_threads(o.threads);
  const torch::Device device = resolve_device(o.device);
  auto c = internal::open_checkpoint(o.checkpoint, device);
  const auto& info = c.info;
  if (o.expect_model && *o.expect_model != info.model.kind)
    throw InputError(o.checkpoint.string(), "model_kind",
                     "checkpoint holds a " + display_name(info.model) + " model, not " +
                         std::string(model_paper_name(*o.expect_model)));
  auto model = internal::load_model(c, o.checkpoint, device);
  const auto files = list_split(o.data, o.split, o.configs);
  const PipelineOptions pipe{.image_size = resolved_image_size(info.model),
                             .batch_size = o.batch_size,
                             .threads = internal::threads_or_hardware(o.threads),
                             .seed = 0,
                             .shuffle = false,
                             .candidates_only = o.candidates_only.value_or(info.candidates_only)};
  internal::EvalTotals t = internal::evaluate_files(
      *model, files, pipe,
      {.device = device, .precision = o.precision, .group = nullptr, .keep_scores = true},
      {.phase = engine::split_name(o.split)}, progress);
  return {info, t.accuracy, t.mean_loss(), files.size(), std::move(t.predictions)};
}

std::string resolve_device_name(const DeviceSpec& device) { return resolve_device(device).str(); }

void set_compute_threads(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  torch::set_num_threads(threads);  // OpenMP's and MKL's inside the wheel's LibTorch
}

void set_flush_denormals(bool flush) {
  if (!at::globalContext().setFlushDenormal(flush)) {
    if (flush) throw UsageError("--flush-denormals: this CPU cannot flush subnormal floats");
    return;
  }
  // A product of 1e-40 on every pool thread (the split is 32,768 elements at least): all zero when
  // flushed, none when kept. The pool starts on the first parallel op and copies this thread's mode.
  const std::int64_t n = std::int64_t{at::get_num_threads()} * 65'536;
  const auto kept = (torch::full({n}, 1e-30f) * 1e-10f != 0).sum().item<std::int64_t>();
  if (kept != (flush ? 0 : n)) {
    at::globalContext().setFlushDenormal(!flush);  // as it was: the threads agree again
    throw UsageError(std::string("--flush-denormals: torch's compute threads were started ") +
                     "(by an earlier run in this process) with subnormals " +
                     (flush ? "kept" : "flushed") + "; train in a new process");
  }
}

}  // namespace rave::neural
