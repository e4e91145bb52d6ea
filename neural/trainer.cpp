// The epoch loop of trainer.hpp: data from the TBB pipeline, steps from training.hpp, checkpoints
// from internal/checkpoint.hpp.
#include "neural/trainer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>

#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "common/random.hpp"
#include "neural/internal/checkpoint.hpp"
#include "neural/training.hpp"

namespace rave::neural {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Running totals of one phase (train, val, test) and the progress reports made from them.
class PhaseMeter {
 public:
  PhaseMeter(std::string_view phase, int epoch, int epochs, std::size_t steps, const ProgressFn& report)
      : report_(report), start_(Clock::now()) {
    progress_ = {phase, epoch, epochs, 0, steps, 0, 0, 0, 0};
  }
  void add(const StepStats& s) {
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
    progress_.eta_seconds = elapsed / static_cast<double>(progress_.step) * static_cast<double>(progress_.steps - progress_.step);
    report_(progress_);
  }
  const StepStats& totals() const { return totals_; }
  double seconds() const { return seconds_since(start_); }
  double mean_loss() const { return totals_.problems ? totals_.loss / static_cast<double>(totals_.problems) : 0.0; }
  double accuracy() const {
    return totals_.problems ? static_cast<double>(totals_.correct) / static_cast<double>(totals_.problems) : 0.0;
  }

 private:
  const ProgressFn& report_;
  Clock::time_point start_;
  Progress progress_;
  StepStats totals_;
};

struct EvalTotals {
  double loss = 0;
  AccuracyByConfig accuracy;
  std::vector<ProblemScores> predictions;
};

ProblemScores problem_scores(const DataFile& file, const float* logits) {
  ProblemScores p{.file = file.path, .config = file.config, .logits = {}, .answer = 0};
  std::copy(logits, logits + p.logits.size(), p.logits.begin());
  p.answer = static_cast<int>(std::max_element(p.logits.begin(), p.logits.end()) - p.logits.begin());
  return p;
}

// One pass in eval mode over `files`, accuracy counted per configuration; with `keep_scores` the
// answer logits of every problem too.
EvalTotals evaluate_files(RavenModelImpl& model, const std::vector<DataFile>& files, const PipelineOptions& options,
                          const torch::Device& device, std::string_view phase, int epoch, int epochs,
                          const ProgressFn& progress, ProblemCache* cache = nullptr, bool keep_scores = false) {
  BatchStream stream(files, options, 0, cache);
  PhaseMeter meter(phase, epoch, epochs, stream.size(), progress);
  EvalTotals out;
  std::vector<std::uint8_t> right;
  std::vector<float> logits;
  while (auto batch = stream.next()) {
    meter.add(eval_step(model, to_tensors(*batch, device), &right, keep_scores ? &logits : nullptr));
    for (std::size_t i = 0; i < right.size(); ++i) {
      const auto c = static_cast<std::size_t>(batch->configs[i]);
      out.accuracy.correct[c] += right[i];
      ++out.accuracy.total[c];
      if (keep_scores) out.predictions.push_back(problem_scores(files[batch->positions[i]], &logits[kAnswerLogits * i]));
    }
  }
  out.loss = meter.mean_loss();
  return out;
}

LossWeights loss_weights(const TrainOptions& o) {
  const LossWeights w{o.meta_alpha.value_or(0.0), o.meta_beta.value_or(o.model.kind == ModelKind::kWReN ? 10.0 : 0.0)};
  const std::string name(model_paper_name(o.model.kind));
  if (w.meta_beta != 0.0 && o.model.kind != ModelKind::kResNet && o.model.kind != ModelKind::kWReN)
    throw UsageError("--meta-beta: " + name + " has no rule-bit head (resnet and wren have one)");
  if (w.meta_alpha != 0.0 && o.model.kind != ModelKind::kResNet)
    throw UsageError("--meta-alpha: " + name + " has no structure-bit head (resnet has one)");
  return w;
}

void check_options(const TrainOptions& o) {
  validate(o.model);
  if (o.epochs < 1) throw UsageError("--epochs must be at least 1");
  if (o.batch_size < 1) throw UsageError("--batch-size must be at least 1");
  if (!(o.learning_rate > 0)) throw UsageError("--lr must be positive");
  if (o.out.empty()) throw UsageError("--out: a run folder is needed");
}

int threads_or_hardware(int threads) {
  return threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

std::string metrics_line(const EpochMetrics& m) {
  char line[320];
  std::snprintf(line, sizeof line,
                "{\"epoch\": %d, \"train_loss\": %.6g, \"train_accuracy\": %.6g, \"val_loss\": %.6g, "
                "\"val_accuracy\": %.6g, \"seconds\": %.3f, \"train_problems_per_s\": %.2f, \"best\": %s}\n",
                m.epoch, m.train_loss, m.train_accuracy, m.val_loss, m.val_accuracy, m.seconds, m.train_rate,
                m.best ? "true" : "false");
  return line;
}

void write_metrics(const fs::path& path, const std::vector<EpochMetrics>& history) {
  std::string text;
  for (const auto& m : history) text += metrics_line(m);
  write_file_atomic(path, std::string_view(text));
}

// The files of the three splits, listed (and checked non-empty) before any training starts.
struct Splits {
  std::vector<DataFile> train, val, test;
};
Splits list_splits(const TrainOptions& o) {
  const auto& test_configs = o.test_configs.empty() ? o.train_configs : o.test_configs;
  return {list_split(o.data, engine::Split::kTrain, o.train_configs),
          list_split(o.data, engine::Split::kVal, o.train_configs),
          list_split(o.data, engine::Split::kTest, test_configs)};
}

void prepare_out(const TrainOptions& o) {
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec) throw InputError(o.out.string(), "", "cannot create run folder: " + ec.message());
  if (!o.resume && fs::exists(o.out / "last.pt", ec))
    throw UsageError(o.out.string() + " already holds a run (last.pt): pass --resume to continue it, or choose another --out");
}

// Continues a run from last.pt: weights, Adam state and the record (architecture must match).
void resume_from(const fs::path& last, const torch::Device& device, RavenModelImpl& model,
                 torch::optim::Optimizer& adam, internal::CheckpointRecord& record) {
  auto c = internal::open_checkpoint(last, device);
  internal::load_weights(c, last, model);
  internal::load_optimizer(c, last, adam);
  if (c.record.info.candidates_only != record.info.candidates_only)
    throw UsageError(last.string() + " was trained " + (c.record.info.candidates_only ? "with" : "without") +
                     " --candidates-only; resume it the same way");
  const ModelOptions model_options = record.info.model;
  record = c.record;
  record.info.model = model_options;
}

}  // namespace

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

namespace {

// One training run: the model, Adam, the run record, and the pipelines and caches of its splits.
class Run {
 public:
  Run(const TrainOptions& o, const torch::Device& device, Splits files)
      : o_(o), device_(device), files_(std::move(files)), weights_(loss_weights(o)),
        last_(o.out / "last.pt"), best_(o.out / "best.pt"),
        model_((torch::manual_seed(o.seed), make_model(o.model))),  // initialised from the seed
        adam_(make_adam(*model_, {o.learning_rate, o.beta1, o.beta2, o.epsilon})),
        record_{{o.model, 0, 0, -1.0, o.candidates_only, o.train_configs, {}}, o.seed},
        train_pipe_{.image_size = resolved_image_size(o.model), .batch_size = o.batch_size,
                    .threads = threads_or_hardware(o.loader_threads ? o.loader_threads : o.threads), .seed = o.seed,
                    .shuffle = true, .candidates_only = o.candidates_only, .shuffle_candidates = o.shuffle_candidates},
        eval_pipe_(without_shuffling(train_pipe_)),
        train_cache_(files_.train.size(), train_pipe_, o.cache_mb << 20),
        val_cache_(files_.val.size(), eval_pipe_, (o.cache_mb << 20) - std::min(o.cache_mb << 20, cached_train_bytes())) {
    model_->to(device_);
    record_.info.model.label_embeddings.clear();  // the table travels as the model's buffer
    if (o.resume && fs::exists(last_)) resume_from(last_, device_, *model_, adam_, record_);
  }

  int epochs_done() const { return record_.info.epoch; }

  // Epoch e visits the training files in a permutation drawn from (seed, e) and reseeds torch's
  // generator from (seed, e) for dropout, so a resumed run repeats the epochs an uninterrupted run
  // would have made (bit for bit on CPU with a fixed thread count).
  EpochMetrics run_epoch(int epoch, const ProgressFn& progress) {
    torch::manual_seed(mix64(o_.seed ^ mix64(static_cast<std::uint64_t>(epoch))));
    const auto t0 = Clock::now();
    BatchStream stream(files_.train, train_pipe_, epoch, &train_cache_);
    PhaseMeter meter("train", epoch, o_.epochs, stream.size(), progress);
    while (auto batch = stream.next()) meter.add(train_step(*model_, adam_, to_tensors(*batch, device_), weights_));
    const double train_seconds = meter.seconds();
    const EvalTotals val =
        evaluate_files(*model_, files_.val, eval_pipe_, device_, "val", epoch, o_.epochs, progress, &val_cache_);
    return {epoch, meter.mean_loss(), meter.accuracy(), val.loss, val.accuracy.overall(), seconds_since(t0),
            static_cast<double>(meter.totals().problems) / std::max(train_seconds, 1e-9),
            val.accuracy.overall() > record_.info.best_val_accuracy};
  }

  // best.pt when validation improved, last.pt (with Adam) and metrics.jsonl always.
  void save(const EpochMetrics& m) {
    record_.info.epoch = m.epoch;
    record_.info.history.push_back(m);
    if (m.best) {
      record_.info.best_epoch = m.epoch;
      record_.info.best_val_accuracy = m.val_accuracy;
      internal::save_checkpoint(best_, record_, *model_, nullptr);
    }
    internal::save_checkpoint(last_, record_, *model_, &adam_);
    write_metrics(o_.out / "metrics.jsonl", record_.info.history);
  }

  // best.pt on the test split.
  TrainResult finish(const ProgressFn& progress) {
    auto chosen = internal::open_checkpoint(best_, device_);
    internal::load_weights(chosen, best_, *model_);
    const EvalTotals test = evaluate_files(*model_, files_.test, eval_pipe_, device_, "test", 0, o_.epochs, progress);
    return {record_.info.history, record_.info.best_epoch, record_.info.best_val_accuracy, test.accuracy, test.loss,
            best_, device_.is_cuda() ? "cuda" : "cpu", parameter_count(*model_), files_.train.size(),
            files_.val.size(), files_.test.size()};
  }

 private:
  static PipelineOptions without_shuffling(PipelineOptions p) {
    p.shuffle = false;
    p.shuffle_candidates = false;
    return p;
  }
  std::size_t cached_train_bytes() const {
    const auto side = static_cast<std::size_t>(train_pipe_.image_size);
    return train_cache_.enabled() ? files_.train.size() * 16 * side * side : 0;
  }

  const TrainOptions& o_;
  torch::Device device_;
  Splits files_;
  LossWeights weights_;
  fs::path last_, best_;
  std::shared_ptr<RavenModelImpl> model_;
  torch::optim::Adam adam_;
  internal::CheckpointRecord record_;
  PipelineOptions train_pipe_, eval_pipe_;
  ProblemCache train_cache_, val_cache_;
};

}  // namespace

TrainResult train(const TrainOptions& o, const ProgressFn& progress, const EpochFn& on_epoch) {
  check_options(o);
  loss_weights(o);  // option errors before any file is touched
  set_compute_threads(o.threads);
  const torch::Device device = resolve_device(o.device);
  Splits files = list_splits(o);
  prepare_out(o);
  Run run(o, device, std::move(files));
  for (int epoch = run.epochs_done() + 1; epoch <= o.epochs; ++epoch) {
    const EpochMetrics m = run.run_epoch(epoch, progress);
    run.save(m);
    if (on_epoch) on_epoch(m);
  }
  return run.finish(progress);
}

CheckpointInfo read_checkpoint_info(const fs::path& checkpoint) {
  return internal::open_checkpoint(checkpoint).record.info;
}

EvalResult evaluate(const EvalOptions& o, const ProgressFn& progress) {
  if (o.batch_size < 1) throw UsageError("--batch-size must be at least 1");
  set_compute_threads(o.threads);
  const torch::Device device = resolve_device(o.device);
  auto c = internal::open_checkpoint(o.checkpoint, device);
  const auto& info = c.record.info;
  if (o.expect_model && *o.expect_model != info.model.kind)
    throw InputError(o.checkpoint.string(), "model_kind",
                     "checkpoint holds a " + display_name(info.model) + " model, not " +
                         std::string(model_paper_name(*o.expect_model)));
  auto model = internal::load_model(c, o.checkpoint, device);
  const auto files = list_split(o.data, o.split, o.configs);
  const PipelineOptions pipe{.image_size = resolved_image_size(info.model), .batch_size = o.batch_size,
                             .threads = threads_or_hardware(o.threads), .seed = 0, .shuffle = false,
                             .candidates_only = o.candidates_only.value_or(info.candidates_only)};
  EvalTotals t = evaluate_files(*model, files, pipe, device, engine::split_name(o.split), 0, 0, progress, nullptr,
                                /*keep_scores=*/true);
  return {info, t.accuracy, t.loss, files.size(), std::move(t.predictions)};
}

}  // namespace rave::neural
