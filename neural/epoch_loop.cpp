// The epoch loop of epoch_loop.hpp: data from the TBB pipeline, steps from train_step.hpp, checkpoints
// from internal/checkpoint.hpp, and, with several ranks, the collectives of
// internal/collective.hpp.
#include "neural/epoch_loop.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <thread>

#include "common/atomic_file.hpp"
#include "common/deferred_signals.hpp"
#include "common/error.hpp"
#include "common/random.hpp"
#include "neural/internal/checkpoint.hpp"
#include "neural/internal/collective.hpp"
#include "neural/internal/eval_pass.hpp"
#include "neural/internal/resume.hpp"
#include "neural/internal/shared_memory.hpp"
#include "neural/train_step.hpp"

namespace rave::neural {
namespace fs = std::filesystem;
namespace {

using internal::Clock;
using internal::EvalTotals;
using internal::evaluate_files;
using internal::mean;
using internal::PhaseMeter;
using internal::reduce;
using internal::seconds_since;
using internal::threads_or_hardware;

constexpr auto kRendezvousTimeout = std::chrono::minutes(5);

void check_options(const TrainOptions& o) {
  validate(o.model);
  if (o.epochs < 1) throw UsageError("epochs must be at least 1");
  if (o.patience < 0) throw UsageError("patience must be 0 (never stop early) or more epochs");
  if (o.batch_size < 1) throw UsageError("batch size must be at least 1");
  if (!(o.learning_rate > 0)) throw UsageError("learning rate must be positive");
  if (o.out.empty()) throw UsageError("a run folder is needed");
  internal::resolved_weights(o);
  if (o.distributed.world_size > 1) (void)internal::shared_memory_allowed();
}

void write_metrics(const fs::path& path, const std::vector<EpochMetrics>& history) {
  std::string text;
  for (const auto& m : history) text += internal::metrics_json_line(m);
  write_file_atomic(path, std::string_view(text));
}

// The files of the three splits, listed (and checked non-empty) before any training starts.
struct Splits {
  std::vector<DataFile> train, val, test;
};
// The first `limit` files of each configuration (list_split orders them by problem number).
std::vector<DataFile> first_per_config(std::vector<DataFile> files, std::size_t limit) {
  if (limit == 0) return files;
  std::array<std::size_t, engine::kNumConfigs> kept{};
  std::erase_if(files, [&](const DataFile& f) {
    return kept[static_cast<std::size_t>(engine::config_index(f.config))]++ >= limit;
  });
  return files;
}

Splits list_splits(const TrainOptions& o) {
  const auto& test_configs = o.test_configs.empty() ? o.train_configs : o.test_configs;
  return {
      first_per_config(list_split(o.data, engine::Split::kTrain, o.train_configs), o.train_limit),
      list_split(o.data, engine::Split::kVal, o.train_configs),
      list_split(o.data, engine::Split::kTest, test_configs)};
}

void prepare_out(const TrainOptions& o) {
  std::error_code ec;
  fs::create_directories(o.out, ec);
  if (ec) throw InputError(o.out.string(), "", "cannot create run folder: " + ec.message());
  if (!o.resume && fs::exists(o.out / "last.pt", ec))
    throw UsageError(o.out.string() +
                     " already holds a run (last.pt): resume it, or choose another run folder");
}

// The state every rank must hold alike: parameters and buffers (batch-norm statistics, label
// table).
std::vector<torch::Tensor> replicated_state(RavenModelImpl& model) {
  auto state = model.parameters();
  for (auto& b : model.buffers()) state.push_back(b);
  return state;
}

// The dropout generator of an epoch: a function of (seed, epoch, rank) only.
std::uint64_t dropout_seed(std::uint64_t seed, int epoch, int rank) {
  const std::uint64_t s = mix64(seed ^ mix64(static_cast<std::uint64_t>(epoch)));
  return rank == 0 ? s : mix64(s ^ static_cast<std::uint64_t>(rank));
}

// One training run: the model, Adam, the run record, the pipelines and caches of its splits and,
// with several ranks, the process group.
class Run {
 public:
  Run(const TrainOptions& o, const torch::Device& device, Splits files,
      std::unique_ptr<internal::Collective> group)
      : o_(o),
        device_(device),
        files_(std::move(files)),
        group_(std::move(group)),
        weights_{internal::resolved_weights(o).meta_alpha, internal::resolved_weights(o).meta_beta,
                 /*binary_answers=*/o.model.kind == ModelKind::kPredRNet},
        rank_(o.distributed.rank),
        last_(o.out / "last.pt"),
        best_(o.out / "best.pt"),
        model_((torch::manual_seed(o.seed), make_model(o.model))),  // initialised from the seed
        adam_(make_adam(*model_, {o.learning_rate, o.beta1, o.beta2, o.epsilon, o.weight_decay})),
        info_{.model = o.model,
              .libtorch = {},  // save_checkpoint records this build's LibTorch and shapes
              .parameters = {},
              .best_val_accuracy = -1.0,
              .candidates_only = o.candidates_only,
              .train_configs = o.train_configs,
              .settings = internal::settings_of(o),
              .history = {}},
        train_pipe_{.image_size = resolved_image_size(o.model),
                    .batch_size = o.batch_size,
                    .threads = threads_or_hardware(o.loader_threads ? o.loader_threads : o.threads),
                    .seed = o.seed,
                    .shuffle = true,
                    .candidates_only = o.candidates_only,
                    .shuffle_candidates = o.shuffle_candidates,
                    .hflip = o.hflip,
                    .rank = o.distributed.rank,
                    .world_size = o.distributed.world_size,
                    .split_global_batches = true},
        eval_pipe_(for_evaluation(train_pipe_)),
        train_cache_(make_train_cache()),
        val_cache_(files_.val.size(), eval_pipe_, budget_left(cached_train_bytes())),
        test_cache_(o.log_test ? files_.test.size() : 0, eval_pipe_,
                    budget_left(cached_train_bytes() + cached_bytes(val_cache_))) {
    if (o.uniform_batch_norm_init)
      uniform_batch_norm_weights(*model_);  // torch's generator, seeded
    if (!o.init_weights.empty() && !(o.resume && fs::exists(last_)))
      load_state_dict_file(*model_, o.init_weights);
    model_->to(device_);
    info_.model.label_embeddings.clear();  // the table travels as the model's buffer
    if (group_ && o.sync_batch_norm) set_batch_norm_group(*model_, group_.get());
    if (o.resume && fs::exists(last_)) resume();
    if (group_) group_->broadcast(replicated_state(*model_));  // rank 0's weights everywhere
  }

  int epochs_done() const { return info_.epoch; }
  // Patience ran out: validation has not improved for o.patience epochs (also after a resume).
  bool out_of_patience() const {
    return o_.patience > 0 && info_.epoch - info_.best_epoch >= o_.patience;
  }

  // Epoch e visits the training files in a permutation drawn from (seed, e) and reseeds torch's
  // generator from (seed, e, rank) for dropout, so a resumed run repeats the epochs an
  // uninterrupted run would have made (bit for bit on CPU with a fixed thread count).
  EpochMetrics run_epoch(int epoch, const ProgressFn& progress) {
    torch::manual_seed(dropout_seed(o_.seed, epoch, rank_));
    const auto t0 = Clock::now();
    const TrainTotals train = train_phase(epoch, progress);
    const EvalTotals val = evaluate_phase("val", epoch, files_.val, &val_cache_, progress);
    if (!std::isfinite(val.loss_sum))
      diverged(epoch, "the validation loss is " + not_finite_text(val.loss_sum));
    if (auto what = internal::non_finite_weights(*model_); !what.empty())
      diverged(epoch, "after its last step, " + what);
    EpochMetrics m{
        .epoch = epoch,
        .train_loss = mean(train.stats.loss, train.stats.problems),
        .train_accuracy = mean(static_cast<double>(train.stats.correct), train.stats.problems),
        .val_loss = val.mean_loss(),
        .val_accuracy = val.accuracy.overall(),
        .seconds = seconds_since(t0),
        .train_rate = static_cast<double>(train.stats.problems) / std::max(train.seconds, 1e-9),
        .best = val.accuracy.overall() > info_.best_val_accuracy,
        .device = device_.str(),
        .has_test = false,
        .test_loss = 0,
        .test = {}};
    if (o_.log_test) {  // diagnosis only: nothing below reads it to choose a checkpoint
      const EvalTotals test = evaluate_phase("test", epoch, files_.test, &test_cache_, progress);
      m.has_test = true;
      m.test_loss = test.mean_loss();
      m.test = test.accuracy;
    }
    return m;
  }

  // best.pt when validation improved, last.pt (with Adam) and metrics.jsonl always; rank 0 writes.
  void save(const EpochMetrics& m) {
    info_.epoch = m.epoch;
    info_.history.push_back(m);
    if (m.best) {
      info_.best_epoch = m.epoch;
      info_.best_val_accuracy = m.val_accuracy;
    }
    if (group_) group_->gather_moments(adam_);  // the ranks' shares of Adam's state, whole
    if (rank_ != 0) return;
    DeferredSignals hold;  // a SIGTERM here waits: last.pt and metrics.jsonl are written as a pair
    if (m.best) internal::save_checkpoint(best_, info_, *model_, nullptr);
    internal::save_checkpoint(last_, info_, *model_, &adam_);
    write_metrics(o_.out / "metrics.jsonl", info_.history);
  }

  // best.pt on the test split (rank 0 reads it and sends its weights to the other ranks).
  TrainResult finish(const ProgressFn& progress) {
    if (rank_ == 0) {
      auto chosen = internal::open_checkpoint(best_, device_);
      internal::load_weights(chosen, best_, *model_);
    }
    if (group_) group_->broadcast(replicated_state(*model_));
    EvalTotals test =
        evaluate_files(*model_, files_.test, eval_pipe_,
                       {device_, o_.precision, group_.get(), /*keep_scores=*/group_ == nullptr},
                       {.phase = "test", .epochs = o_.epochs}, progress);
    return {info_.history,
            info_.best_epoch,
            info_.best_val_accuracy,
            /*stopped_early=*/false,
            test.accuracy,
            test.mean_loss(),
            std::move(test.predictions),
            best_,
            device_.str(),
            parameter_count(*model_),
            files_.train.size(),
            files_.val.size(),
            files_.test.size(),
            rank_,
            o_.distributed.world_size};
  }

 private:
  // The training half of an epoch: its totals summed over the ranks, and its seconds (this rank's).
  struct TrainTotals {
    StepStats stats;
    double seconds;
  };
  TrainTotals train_phase(int epoch, const ProgressFn& progress) {
    BatchStream stream(files_.train, train_pipe_, epoch, &train_cache_);
    PhaseMeter meter("train", epoch, o_.epochs, stream.size(), progress);
    for (std::size_t step = 1; auto batch = stream.next(); ++step) {
      const StepStats s = train_step(
          *model_, adam_, to_tensors(*batch, device_), weights_,
          {.precision = o_.precision, .group = group_.get(), .global_batch = batch->global_size});
      // Alone, stop at the first step; the ranks of a group stop together, on the summed loss.
      if (!group_ && !std::isfinite(s.loss))
        diverged(epoch, "the training loss of step " + std::to_string(step) + " of " +
                            std::to_string(stream.size()) + " is " + not_finite_text(s.loss));
      meter.add(s);
    }
    TrainTotals out{meter.totals(), meter.seconds()};
    reduce(group_.get(), out.stats);
    if (!std::isfinite(out.stats.loss))
      diverged(epoch, "the training loss is " + not_finite_text(out.stats.loss));
    return out;
  }
  // The validation or test pass of an epoch, over the ranks.
  EvalTotals evaluate_phase(std::string_view phase, int epoch, const std::vector<DataFile>& files,
                            ProblemCache* cache, const ProgressFn& progress) {
    return evaluate_files(*model_, files, eval_pipe_, {device_, o_.precision, group_.get()},
                          {.phase = phase, .epoch = epoch, .epochs = o_.epochs}, progress, cache);
  }
  // Stops the run before epoch `epoch` writes anything: the checkpoints keep the last finite one.
  [[noreturn]] void diverged(int epoch, const std::string& what) const {
    const std::string kept = info_.epoch == 0
                                 ? "no checkpoint was written"
                                 : "nothing of this epoch was written: last.pt still holds epoch " +
                                       std::to_string(info_.epoch);
    throw DivergedError(o_.out.string() + ": epoch " + std::to_string(epoch) + ": " + what +
                        ": training diverged and stopped; " + kept +
                        " (train anew with a lower learning rate)");
  }
  static std::string not_finite_text(double value) {
    return std::isnan(value) ? "NaN" : "infinite";
  }
  static PipelineOptions for_evaluation(PipelineOptions p) {
    p.shuffle = false;
    p.shuffle_candidates = false;
    p.hflip = false;
    p.split_global_batches = false;
    return p;
  }
  // With several ranks on one machine the decoded training split is kept once, in memory they all
  // map: a rank's slice of each global batch changes every epoch, and with a cache of its own a
  // rank missed half its problems in the second epoch, a quarter in the third, and so on. Where
  // the region cannot be had (several machines, a /dev/shm too small), each rank keeps its own.
  ProblemCache make_train_cache() {
    const std::size_t files = files_.train.size(), budget = o_.cache_mb << 20;
    const auto bytes = ProblemCache::memory_bytes(files, train_pipe_, budget);
    if (auto region = group_ ? group_->shared_region(bytes) : nullptr)
      return {files, train_pipe_, budget, {region->data(), region->size(), region}};
    return {files, train_pipe_, budget};
  }
  std::size_t cached_train_bytes() const {
    return train_cache_.capacity() * ProblemCache::problem_bytes(train_pipe_);
  }
  std::size_t cached_bytes(const ProblemCache& cache) const {
    return cache.capacity() * ProblemCache::problem_bytes(eval_pipe_);
  }
  // What --cache-mb leaves after `used` bytes.
  std::size_t budget_left(std::size_t used) const {
    return (o_.cache_mb << 20) - std::min(o_.cache_mb << 20, used);
  }

  // Continues from last.pt: weights, Adam state and the record; the LibTorch, the parameters and
  // the settings must match.
  void resume() {
    auto c = internal::open_checkpoint(last_, device_);
    internal::load_weights(c, last_, *model_);
    internal::check_resumable(c, last_);  // another LibTorch: no settings make it resume
    internal::check_resume(c.info, o_, last_.string());
    internal::load_optimizer(c, last_, adam_, *model_);
    const ModelOptions model_options = info_.model;
    const RunSettings now = info_.settings;  // where the data lies now, the patience of now
    info_ = c.info;
    info_.model = model_options;
    info_.settings = now;
  }

  const TrainOptions& o_;
  torch::Device device_;
  Splits files_;
  std::unique_ptr<internal::Collective> group_;
  LossWeights weights_;
  int rank_;
  fs::path last_, best_;
  std::shared_ptr<RavenModelImpl> model_;
  FusedAdam adam_;
  CheckpointInfo info_;
  PipelineOptions train_pipe_, eval_pipe_;
  ProblemCache train_cache_, val_cache_, test_cache_;
};

}  // namespace

TrainResult train(const TrainOptions& o, const ProgressFn& progress, const EpochFn& on_epoch) {
  check_options(o);
  set_compute_threads(o.threads);
  set_flush_denormals(o.flush_denormals);
  const torch::Device device = resolve_device(o.device, o.distributed.local_rank);
  Splits files = list_splits(o);
  prepare_out(o);
  std::unique_ptr<internal::Collective> group;
  if (o.distributed.world_size > 1)
    group = std::make_unique<internal::Collective>(o.distributed, device, kRendezvousTimeout);
  Run run(o, device, std::move(files), std::move(group));
  for (int epoch = run.epochs_done() + 1; epoch <= o.epochs && !run.out_of_patience(); ++epoch) {
    const EpochMetrics m = run.run_epoch(epoch, progress);
    run.save(m);
    if (on_epoch) on_epoch(m);
  }
  const bool stopped_early = run.epochs_done() < o.epochs;
  TrainResult result = run.finish(progress);
  result.stopped_early = stopped_early;
  return result;
}

}  // namespace rave::neural
