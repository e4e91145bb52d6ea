// `rave train`: train one of the paper's baselines (docs/neural-reference.md) on a RAVEN dataset
// and report test accuracy per configuration; checkpoints, metrics.jsonl, curves.png and
// test.md/.csv go to --out.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "cli/neural/neural_launch.hpp"
#include "cli/neural/neural_report.hpp"
#include "cli/neural/neural_words.hpp"
#include "cli/progress.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "jobs/dataset_manifest.hpp"
#include "neural/epoch_loop.hpp"
#include "neural/label_embeddings.hpp"

namespace rave::apps {
namespace {

struct TrainArgs {
  std::string model;
  bool drt = false;
  bool no_tag = false;
  int drt_width = 0;
  std::string init_weights;
  std::string data, out, label_embeddings = "glove", device = "auto", precision = "fp32";
  std::vector<std::string> train_configs, test_configs;
  int epochs = 200, patience = 0, batch_size = 32, image_size = 0, threads = 0, loader_threads = 0,
      nproc = 1;
  bool no_cpu_bind = false;
  std::size_t cache_mb = 2048, train_limit = 0;
  double lr = 1e-4, adam_epsilon = 1e-8, weight_decay = 0;
  std::optional<double> meta_alpha, meta_beta;
  std::uint64_t seed = 12345;
  bool candidates_only = false, shuffle_candidates = false, hflip = false, log_test = false,
       resume = false, no_sync_batch_norm = false;
  std::string batch_norm_init = "ones";
};

// -j's default: the machine's threads, shared among the ranks started on it.
int threads_per_rank() {
  const char* local = std::getenv("LOCAL_WORLD_SIZE");
  const int ranks = local ? std::max(1, std::atoi(local)) : 1;
  return std::max(1, cli::default_threads() / ranks);
}

neural::TrainOptions to_options(const TrainArgs& a) {
  neural::TrainOptions o;
  o.model = {.kind = cli::model_from_word(a.model),
             .drt = a.drt,
             .image_size = a.image_size,
             .wren_tag = !a.no_tag,
             .drt_width = a.drt_width};
  if (a.drt) {
    neural::LabelTable table = neural::label_table(a.label_embeddings);
    o.model.label_embeddings = std::move(table.values);
    o.model.label_table = table.name;
  }
  o.data = a.data;
  o.out = a.out;
  o.train_configs = cli::parse_config_list(a.train_configs);
  o.test_configs = cli::parse_config_list(a.test_configs);
  o.epochs = a.epochs;
  o.patience = a.patience;
  o.train_limit = a.train_limit;
  o.data_identity = jobs::dataset_identity(o.data).value_or("");
  o.batch_size = a.batch_size;
  o.learning_rate = a.lr;
  o.epsilon = a.adam_epsilon;
  o.weight_decay = a.weight_decay;
  o.hflip = a.hflip;
  o.log_test = a.log_test;
  o.init_weights = a.init_weights;
  o.uniform_batch_norm_init = a.batch_norm_init == "uniform";
  o.meta_alpha = a.meta_alpha;
  o.meta_beta = a.meta_beta;
  o.seed = a.seed;
  o.threads = a.threads > 0 ? a.threads : threads_per_rank();
  o.loader_threads = a.loader_threads;
  o.cache_mb = a.cache_mb;
  o.device = cli::device_from_word(a.device);
  o.precision = cli::precision_from_word(a.precision);
  o.distributed = neural::distributed_env_from_environment();
  o.sync_batch_norm = !a.no_sync_batch_norm;
  o.candidates_only = a.candidates_only;
  o.shuffle_candidates = a.shuffle_candidates;
  o.resume = a.resume;
  return o;
}

// A redrawn status line on a terminal (at most 5 times a second), nothing otherwise.
class StatusLine {
 public:
  void operator()(const neural::Progress& p) {
    const auto now = std::chrono::steady_clock::now();
    if (!enabled_ || (p.step != p.steps && now - last_ < std::chrono::milliseconds(200))) return;
    last_ = now;
    std::fprintf(
        stderr, "\r%-5s %s%d/%d  batch %zu/%zu  loss %.4f  acc %5.1f%%  %.1f problems/s  ETA %s   ",
        std::string(p.phase).c_str(), p.epoch ? "epoch " : "", p.epoch, p.epochs, p.step, p.steps,
        p.loss, 100 * p.accuracy, p.rate, cli::format_duration(p.eta_seconds).c_str());
    if (p.step == p.steps) std::fputc('\r', stderr);
    std::fflush(stderr);
  }

 private:
  bool enabled_ = ::isatty(STDERR_FILENO) != 0;
  std::chrono::steady_clock::time_point last_{};
};

void print_epoch(const neural::EpochMetrics& m, int epochs) {
  char test[64] = "";
  if (m.has_test)
    std::snprintf(test, sizeof test, "  test acc %.2f%% (diagnosis only)", 100 * m.test.overall());
  std::printf(
      "epoch %d/%d  train loss %.4f acc %.2f%%  val loss %.4f acc %.2f%%  %.1f s  %.1f "
      "problems/s%s%s\n",
      m.epoch, epochs, m.train_loss, 100 * m.train_accuracy, m.val_loss, 100 * m.val_accuracy,
      m.seconds, m.train_rate, m.best ? "  (best)" : "", test);
  std::fflush(stdout);
}

// best.pt on the test split as `rave eval` reports it (scored against the data's answer key, the
// solver and context-blind rows beside); from the counts alone when the ranks' sharded pass kept
// no answers.
evaluation::Report test_report(const neural::TrainOptions& o, const std::string& name,
                               const neural::TrainResult& r) {
  const std::string note = o.out.filename().string();
  if (r.test_predictions.empty()) return cli::counts_report(name, r.test, note);
  evaluation::LabeledFile file{name, cli::prediction_file(o.data, r.test_predictions, name)};
  file.file.file = (o.out / "best.pt").string();
  const int threads =
      o.threads > 0 ? o.threads : static_cast<int>(std::thread::hardware_concurrency());
  return cli::answers_report(o.data, {file}, {r.test}, std::max(threads, 1), false, true);
}

// Rank 0 of a data-parallel run reports; the other ranks train silently.
int run_train(const TrainArgs& args) {
  const neural::TrainOptions o = to_options(args);
  const std::string name =
      neural::display_name(o.model) + (o.candidates_only ? " (candidates only)" : "");
  const int world = o.distributed.world_size;
  if (o.distributed.rank != 0) {
    neural::train(o);
    return 0;
  }
  std::printf(
      "training %s on %s -> %s (%d epochs, batch %d%s, lr %g, device %s, %s, %d threads%s)\n",
      name.c_str(), o.data.c_str(), o.out.c_str(), o.epochs, o.batch_size * world,
      world > 1
          ? (" = " + std::to_string(world) + " ranks x " + std::to_string(o.batch_size)).c_str()
          : "",
      o.learning_rate, neural::resolve_device_name(o.device).c_str(),
      std::string(neural::precision_name(o.precision)).c_str(), o.threads,
      world > 1 ? " per rank" : "");
  if (const auto cpus = cli::rank_cpu_binding(); !cpus.empty())
    std::printf("CPUs of the ranks: %s\n", cpus.c_str());
  std::fflush(stdout);
  StatusLine status;
  const neural::TrainResult r =
      neural::train(o, std::ref(status), [&](const auto& m) { print_epoch(m, o.epochs); });
  if (r.stopped_early)
    std::printf("stopped after epoch %zu: validation accuracy has not improved for %d epochs\n",
                r.history.size(), o.patience);
  std::printf(
      "%s: %lld parameters, %zu/%zu/%zu train/val/test problems, best epoch %d (val %.2f%%)\n",
      name.c_str(), static_cast<long long>(r.parameters), r.train_problems, r.val_problems,
      r.test_problems, r.best_epoch, 100 * r.best_val_accuracy);
  const evaluation::Report report = test_report(o, name, r);
  const std::string table = evaluation::report_table(report);
  std::printf("test accuracy (%%) of best.pt:\n%s", table.c_str());
  write_file_atomic(o.out / "test.md", std::string_view(table));
  write_file_atomic(o.out / "test.csv", evaluation::report_csv(report));
  const std::string png = cli::curves_png(name, r.history);
  write_file_atomic(o.out / "curves.png", std::string_view(png));
  return 0;
}

}  // namespace

Runner add_train(CLI::App& app) {
  auto a = std::make_shared<TrainArgs>();
  auto* cmd = app.add_subcommand("train",
                                 "Train a baseline of the RAVEN paper (CNN_MLP, ResNet18_MLP, "
                                 "CNN_LSTM, WReN; --drt adds the Dynamic\n"
                                 "Residual Tree) on <data>/<configuration>/RAVEN_<k>_<split>.npz; "
                                 "validates each epoch and reports\n"
                                 "test accuracy per configuration of the best-validation "
                                 "checkpoint. Writes --out/{best,last}.pt,\n"
                                 "metrics.jsonl, curves.png, test.md, test.csv.");
  cmd->add_option("--model,-m", a->model, "cnn | resnet | lstm | wren | predrnet")->required();
  cmd->add_flag("--drt", a->drt, "Add the Dynamic Residual Tree (structure sentence as input)");
  cmd->add_option("--drt-width", a->drt_width,
                  "Width of the tree's inner nodes (default: the feature width, the reference's): "
                  "the tree-width ablation")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--data,-d", a->data,
                  "Dataset folder (rave generate --save-dir, or the original RAVEN)")
      ->required();
  cmd->add_option("--out,-o", a->out, "Run folder for checkpoints and reports")->required();
  cmd->add_option("--epochs,-e", a->epochs, "Epochs")->capture_default_str();
  cmd->add_option("--patience", a->patience,
                  "Stop when validation accuracy has not improved for this many epochs (0: never, "
                  "the reference's; may change on --resume)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--train-limit", a->train_limit,
                  "Train on the first K training problems of each configuration (0: all; val and "
                  "test stay whole): the data-scaling runs")
      ->capture_default_str();
  cmd->add_option("--batch-size,-b", a->batch_size, "Problems per batch")->capture_default_str();
  cmd->add_option("--lr", a->lr, "Adam learning rate")->capture_default_str();
  cmd->add_option("--adam-epsilon", a->adam_epsilon,
                  "Adam's epsilon (the reference's 1e-8; a large one makes the step follow the "
                  "gradient's size)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--weight-decay", a->weight_decay,
                  "Adam's L2 weight decay (torch's weight_decay; the reference's 0)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--image-size", a->image_size,
                  "Panel side fed to the model (default: 224 ResNet, 80 others)");
  cmd->add_option("--meta-alpha", a->meta_alpha,
                  "Weight of the structure-bit BCE (resnet; default 0)");
  cmd->add_option("--meta-beta", a->meta_beta,
                  "Weight of the rule-bit BCE (resnet, wren; default 0, wren 10)");
  cmd->add_option("--seed,-s", a->seed, "Seed of initialisation, dropout and shuffling")
      ->capture_default_str();
  cmd->add_option("-j,--threads", a->threads,
                  "Torch and BLAS threads (default: the machine's, shared among its ranks)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--loader-threads", a->loader_threads,
                  "Data pipeline workers (default: --threads)");
  cmd->add_option("--device", a->device, "auto | cpu | cuda | cuda:K (cuda: the GPU of LOCAL_RANK)")
      ->capture_default_str();
  cmd->add_option("--precision", a->precision, "fp32 | bf16 (autocast of the forward pass)")
      ->capture_default_str();
  cmd->add_option(
         "--cache-mb", a->cache_mb,
         "Keep this much of the decoded train/val problems in memory; the rest streams from disk")
      ->capture_default_str();
  cmd->add_option("--nproc", a->nproc,
                  "Data-parallel ranks to start on this machine (batch is per rank; "
                  "several machines: RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT as torchrun; ranks "
                  "on one machine sum through shared memory, RAVE_SHARED_MEMORY=0 for Gloo)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--no-cpu-bind", a->no_cpu_bind,
                "With --nproc, leave the ranks to the scheduler instead of binding each to its "
                "share of the CPUs (contiguous blocks, as taskset)");
  cmd->add_flag("--no-sync-batch-norm", a->no_sync_batch_norm,
                "With several ranks, batch-norm statistics per rank (PyTorch DDP's default) "
                "instead of the global batch");
  cmd->add_option("--train-configs", a->train_configs,
                  "Configurations to train and validate on (default all)")
      ->delimiter(',');
  cmd->add_option("--test-configs", a->test_configs,
                  "Configurations to test on (default: the training ones)")
      ->delimiter(',');
  cmd->add_flag("--candidates-only", a->candidates_only,
                "Zero the 8 context panels (answer-set shortcut ablation)");
  cmd->add_flag("--shuffle-candidates", a->shuffle_candidates,
                "Augment: permute each training problem's 8 candidates anew every epoch (off in "
                "the reference)");
  cmd->add_option(
         "--label-embeddings", a->label_embeddings,
         "DRT label vectors: glove (the original's), random (seeded), or a float32 22x300 .npy")
      ->capture_default_str();
  cmd->add_flag("--hflip", a->hflip,
                "Augment: mirror a training problem's panels left-right with probability 1/2 "
                "(PredRNet's recipe)");
  cmd->add_flag("--log-test", a->log_test,
                "Also test after every epoch and record it in metrics.jsonl (diagnosis only; the "
                "checkpoint is still chosen by validation)");
  cmd->add_option("--init-weights", a->init_weights,
                  "Start from these weights: a torch.save'd dict of tensors in rave's names "
                  "(scripts/neural/reference.py)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--batch-norm-init", a->batch_norm_init,
                  "Batch-norm weights at the start: ones (PyTorch since 1.2, LibTorch) or uniform "
                  "(U(0,1), PyTorch before 1.2, where the reference ran)")
      ->check(CLI::IsMember({"ones", "uniform"}))
      ->capture_default_str();
  cmd->add_flag("--no-tag", a->no_tag, "WReN without the panel tags");
  cmd->add_flag("--resume", a->resume, "Continue the run in --out from last.pt");
  return [a] {
    if (a->nproc > 1 && !cli::launched_rank()) {
      if (std::getenv("WORLD_SIZE"))
        throw UsageError(
            "--nproc with WORLD_SIZE set: the ranks are started already (torchrun, Slurm); drop "
            "--nproc");
      return cli::launch_ranks(a->nproc, !a->no_cpu_bind);
    }
    return cli::run_as_rank([&] { return run_train(*a); });
  };
}

}  // namespace rave::apps
