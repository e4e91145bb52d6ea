#pragma once
// Training and evaluation of the paper's baselines (docs/neural-reference.md#losses,
// docs/neural-reference.md#training-and-evaluation), torch-free for faces/apps/: Adam with the reference
// hyper-parameters, cross-entropy plus the optional auxiliary losses, validation each epoch, the
// best-validation checkpoint, resume, a metrics file per epoch, and test accuracy per
// configuration. Files written into the run folder (atomically):
//   best.pt        the weights with the best validation accuracy (what `rave eval` reads)
//   last.pt        weights + Adam state + history after the last finished epoch (for --resume)
//   metrics.jsonl  one JSON object per epoch
//
//   TrainOptions o{.model = {.kind = ModelKind::kCnn, .drt = true}, .data = "data",
//                  .out = "runs/cnn"};
//   TrainResult r = train(o, [](const Progress& p) { ... });   // r.test.overall()
//   EvalResult e = evaluate({.checkpoint = "runs/cnn/best.pt", .data = "data"});
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/formats/layout.hpp"
#include "engine/model/configuration.hpp"
#include "engine/model/problem.hpp"
#include "neural/distributed.hpp"
#include "neural/options.hpp"

namespace rave::neural {

/// Correct answers and problems per configuration
/// (docs/neural-reference.md#training-and-evaluation: the per-config columns).
struct AccuracyByConfig {
  std::array<std::int64_t, engine::kNumConfigs> correct{};
  std::array<std::int64_t, engine::kNumConfigs> total{};
  /// Accuracy in [0, 1] on one configuration; NaN when it had no problems.
  double accuracy(engine::ConfigId config) const;
  /// Accuracy over all problems (per problem, not the reference's mean of batch means); NaN if
  /// none.
  double overall() const;
  /// Problems counted.
  std::int64_t problems() const;
};

/// The record of one epoch (a line of metrics.jsonl).
struct EpochMetrics {
  int epoch = 0;              ///< 1-based
  double train_loss = 0;      ///< mean training objective (CE + auxiliary terms)
  double train_accuracy = 0;  ///< on the training batches, in train mode
  double val_loss = 0;        ///< mean cross-entropy on val, eval mode
  double val_accuracy = 0;
  double seconds = 0;     ///< wall time of training + validation
  double train_rate = 0;  ///< training problems per second
  bool best = false;      ///< best validation accuracy so far (best.pt written)
  std::string device;     ///< where the epoch ran: "cpu", "cuda:0"; "" in records before 2026-12
  /// With TrainOptions::log_test: the test split after this epoch, for diagnosis only (learning
  /// curves, what "last epoch" or "best test" would report); never used to select a checkpoint.
  bool has_test = false;
  double test_loss = 0;   ///< mean cross-entropy
  AccuracyByConfig test;  ///< correct and total per configuration
};

/// A running report from inside an epoch (training or evaluation).
struct Progress {
  std::string_view phase;  ///< "train", "val" or "test"
  int epoch = 0;           ///< 1-based; 0 outside training
  int epochs = 0;
  std::size_t step = 0;    ///< batches done in this phase
  std::size_t steps = 0;   ///< batches in this phase
  double loss = 0;         ///< running mean
  double accuracy = 0;     ///< running mean
  double rate = 0;         ///< problems per second
  double eta_seconds = 0;  ///< until the phase ends
};
using ProgressFn = std::function<void(const Progress&)>;
using EpochFn = std::function<void(const EpochMetrics&)>;

/// A training run.
struct TrainOptions {
  ModelOptions model = {};
  std::filesystem::path data = {};  ///< dataset root: <data>/<configuration>/RAVEN_*.npz
  std::filesystem::path out = {};   ///< run folder (created)
  std::vector<engine::ConfigId> train_configs =
      {};  ///< train and val configurations; empty = all seven
  std::vector<engine::ConfigId> test_configs = {};  ///< test configurations; empty = train_configs
  int epochs = 200;  ///< docs/neural-reference.md#training-and-evaluation
  /// Stop when validation accuracy has not improved for this many epochs; 0: never (the
  /// reference's). Not a setting a resumed run must repeat: it may be changed between sittings.
  int patience = 0;
  /// Train on the first train_limit training problems of each configuration (by problem number);
  /// 0: all. Validation and test are whole. Problem k depends only on (seed, configuration, k), so
  /// the first K of a generated set are the training split of the smaller set of that seed.
  std::size_t train_limit = 0;
  /// What the data is, wherever it lies (jobs::dataset_identity: its generating command and a hash
  /// of its files); "" when unknown (no complete rave.json). A resumed run whose checkpoint has an
  /// identity accepts any folder holding the same data, so it can move to another machine.
  std::string data_identity = {};
  int batch_size = 32;
  double learning_rate = 1e-4;  ///< Adam (docs/neural-reference.md#training-and-evaluation)
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
  double weight_decay = 0.0;  ///< Adam's L2 term (torch's weight_decay); the reference's 0
  std::optional<double> meta_alpha =
      {};  ///< weight of mean BCE on the 21 structure bits; default 0
  std::optional<double> meta_beta =
      {};                       ///< weight of mean BCE on the 9 rule bits; default 0, WReN 10
  std::uint64_t seed = 12345;   ///< init, dropout and shuffling
  int threads = 0;              ///< torch / BLAS threads; 0 = all hardware threads
  int loader_threads = 0;       ///< pipeline workers; 0 = threads
  std::size_t cache_mb = 2048;  ///< decoded train/val problems kept in memory (what fits)
  DeviceSpec device = {};
  Precision precision = Precision::kFp32;  ///< bf16: autocast of the forward pass
  bool candidates_only = false;            ///< zero the context panels (shortcut ablation)
  bool shuffle_candidates = false;         ///< augmentation: permute candidates per epoch
  /// Augmentation: mirror all 16 panels of a training problem left-right, each problem each epoch
  /// with probability 1/2 from (seed, epoch, file) (PredRNet's RandomHorizontalFlip).
  bool hflip = false;
  /// Evaluate the test split after every epoch and record it in metrics.jsonl (diagnosis only:
  /// the checkpoint is still chosen by validation accuracy). May change between sittings.
  bool log_test = false;
  /// Start from these weights instead of the seed's initialisation: a torch.save'd dict of
  /// tensors named as the model's parameters and buffers (every parameter needed; buffers
  /// optional). Ignored when resuming from last.pt.
  std::filesystem::path init_weights = {};
  /// Batch-norm weights (gamma) drawn from U(0, 1) at initialisation, as PyTorch before 1.2 made
  /// them (the reference's code ran there), instead of 1 (PyTorch since 1.2, LibTorch).
  bool uniform_batch_norm_init = false;
  /// Flush subnormal floats to zero in the CPU's arithmetic (FTZ and DAZ, in this thread and every
  /// thread of torch's pool). Off, as PyTorch: bit for bit the runs made before the flag. On: weights
  /// that weight decay drives towards zero no longer pass through the subnormal range, where each
  /// multiply takes a slow path (a CNN+DRT epoch with --weight-decay grew from 45 s to 128 s).
  bool flush_denormals = false;
  bool resume = false;  ///< continue from <out>/last.pt
  /// This process's place in a data-parallel run (world_size 1: alone). batch_size is per rank;
  /// the global batch is batch_size x world_size.
  DistributedEnv distributed = {};
  /// With several ranks, batch-norm statistics over the global batch (results as one process
  /// with the global batch); false: per rank, as PyTorch's DistributedDataParallel by default.
  bool sync_batch_norm = true;
};

/// The settings a resumed run must repeat (recorded in checkpoints; resume names any difference).
struct RunSettings {
  double learning_rate = 0;
  double adam_epsilon = 1e-8;
  std::uint64_t seed = 0;
  std::string data;             ///< the dataset folder, absolute (where it was when last saved)
  std::string data_identity;    ///< TrainOptions::data_identity; "" when unknown
  std::size_t train_limit = 0;  ///< training problems per configuration; 0: all
  int patience = 0;             ///< recorded, not compared on resume
  int batch_size = 0;           ///< per rank
  int world_size = 1;
  bool shuffle_candidates = false;
  double meta_alpha = 0, meta_beta = 0;
  bool sync_batch_norm = true;
  std::string precision = "fp32";
  double weight_decay = 0;
  bool hflip = false;
  std::string init_weights;  ///< recorded, not compared: the file the run started from ("": seed)
  std::string batch_norm_init = "ones";  ///< "ones" or "uniform" (recorded, not compared)
  bool flush_denormals = false;          ///< TrainOptions::flush_denormals
  friend bool operator==(const RunSettings&, const RunSettings&) = default;
};

/// One answer logit per candidate.
inline constexpr std::size_t kAnswerLogits = engine::kCandidates;

/// One problem's answer scores from an evaluation.
struct ProblemScores {
  std::filesystem::path file;  ///< the .npz
  engine::ConfigId config = engine::ConfigId::kCenterSingle;
  std::array<float, kAnswerLogits> logits{};  ///< the model's answer logits, candidate order
  int answer = 0;                             ///< the highest logit (lowest index on ties)
};

/// What a run produced.
struct TrainResult {
  std::vector<EpochMetrics> history;  ///< every epoch, resumed ones included
  int best_epoch = 0;
  double best_val_accuracy = 0;
  bool stopped_early = false;  ///< patience ran out before the last epoch
  AccuracyByConfig test;       ///< best.pt on the test split
  double test_loss = 0;        ///< mean cross-entropy
  /// best.pt's answers per test problem, in file order (one process; empty with several ranks,
  /// whose passes are sharded).
  std::vector<ProblemScores> test_predictions;
  std::filesystem::path best_checkpoint;
  std::string device;  ///< "cpu" or "cuda:K"
  std::int64_t parameters = 0;
  std::size_t train_problems = 0, val_problems = 0, test_problems = 0;
  int rank = 0;  ///< this process's rank (only rank 0 writes files)
  int world_size = 1;
};

/// Training diverged: a loss or a weight became NaN or infinite. what() is one line naming the run
/// folder, the epoch and what was not finite; nothing of that epoch was written, so last.pt and
/// best.pt hold the last finite epoch (or do not exist after a first epoch that diverged).
class DivergedError : public Error {
 public:
  using Error::Error;
};

/// Trains, validating each epoch; UsageError on bad options, InputError on bad data or files,
/// DistributedError when another rank of a multi-process run is lost, DivergedError when a loss
/// or a weight stops being finite.
TrainResult train(const TrainOptions& options, const ProgressFn& progress = {},
                  const EpochFn& on_epoch = {});

/// A model parameter as a checkpoint records it: its name and shape.
struct ParameterShape {
  std::string name;
  std::vector<std::int64_t> shape;
  friend bool operator==(const ParameterShape&, const ParameterShape&) = default;
};

/// What a checkpoint says about itself.
struct CheckpointInfo {
  ModelOptions model;    ///< architecture and label table name (not its values)
  std::string libtorch;  ///< LibTorch version that wrote it; "" where rave did not record it (1.13)
  std::vector<ParameterShape> parameters;  ///< the model's, in order; empty where not recorded
  int epoch = 0;                           ///< epochs trained
  int best_epoch = 0;
  double best_val_accuracy = 0;
  bool candidates_only = false;                 ///< trained on candidates-only input
  std::vector<engine::ConfigId> train_configs;  ///< empty = all
  RunSettings settings;
  std::vector<EpochMetrics> history;
};
/// Reads a checkpoint's record; InputError when the file is missing or not a rave checkpoint.
CheckpointInfo read_checkpoint_info(const std::filesystem::path& checkpoint);

/// An evaluation of a checkpoint on one split.
struct EvalOptions {
  std::filesystem::path checkpoint = {};
  std::filesystem::path data = {};
  engine::Split split = engine::Split::kTest;
  std::vector<engine::ConfigId> configs = {};  ///< empty = all seven
  int batch_size = 32;
  int threads = 0;
  DeviceSpec device = {};
  Precision precision = Precision::kFp32;
  std::optional<bool> candidates_only = {};    ///< default: as the checkpoint was trained
  std::optional<ModelKind> expect_model = {};  ///< InputError if the checkpoint holds another model
};

/// Accuracy per configuration of one checkpoint.
struct EvalResult {
  CheckpointInfo info;
  AccuracyByConfig accuracy;
  double loss = 0;  ///< mean cross-entropy
  std::size_t problems = 0;
  std::vector<ProblemScores> predictions;  ///< one per problem, in the split's file order
};
EvalResult evaluate(const EvalOptions& options, const ProgressFn& progress = {});

/// Sets torch's intra-op threads (OpenMP's and the BLAS's inside LibTorch) to `threads` (0 =
/// hardware threads).
void set_compute_threads(int threads);
/// Sets or clears flush-to-zero for subnormal floats (FTZ and DAZ). The mode is per thread, and
/// torch's intra-op threads copy the calling thread's when they start (its first parallel op): so
/// call it before that, as train() does. UsageError when the pool already runs in the other mode,
/// or when flushing and the CPU cannot.
void set_flush_denormals(bool flush);
/// "cpu" or "cuda:K" for a device request; UsageError for cuda without a usable GPU.
std::string resolve_device_name(const DeviceSpec& device);

}  // namespace rave::neural
