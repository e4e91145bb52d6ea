#include "cli/neural/train_options.hpp"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "cli/cli_util.hpp"
#include "cli/neural/neural_words.hpp"
#include "jobs/dataset_manifest.hpp"
#include "neural/label_embeddings.hpp"

namespace rave::cli {
namespace {

constexpr const char* kUniform = "uniform";

// -j's default: the machine's threads, shared among the ranks started on it.
int threads_per_rank() {
  const char* local = std::getenv("LOCAL_WORLD_SIZE");
  const int ranks = local ? std::max(1, std::atoi(local)) : 1;
  return std::max(1, default_threads() / ranks);
}

// The flags in the order --help lists them, five at a time.
void bind_model_and_data(CLI::App& cmd, TrainFlags& f) {
  neural::TrainOptions& o = f.options;
  cmd.add_option("--model,-m", f.model, "cnn | resnet | lstm | wren | predrnet | scl")->required();
  cmd.add_flag("--drt", o.model.drt, "Add the Dynamic Residual Tree (structure sentence as input)");
  cmd.add_option("--drt-width", o.model.drt_width,
                 "Width of the tree's inner nodes (default: the feature width, the reference's): "
                 "the tree-width ablation")
      ->check(CLI::PositiveNumber);
  cmd.add_option("--data,-d", o.data,
                 "Dataset folder (rave generate --save-dir, or the original RAVEN)")
      ->required();
  cmd.add_option("--out,-o", o.out, "Run folder for checkpoints and reports")->required();
  cmd.add_option("--epochs,-e", o.epochs, "Epochs")->capture_default_str();
  cmd.add_option("--patience", o.patience,
                 "Stop when validation accuracy has not improved for this many epochs (0: never, "
                 "the reference's; may change on --resume)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd.add_option("--train-limit", o.train_limit,
                 "Train on the first K training problems of each configuration (0: all; val and "
                 "test stay whole): the data-scaling runs")
      ->capture_default_str();
}

void bind_optimizer(CLI::App& cmd, TrainFlags& f) {
  neural::TrainOptions& o = f.options;
  cmd.add_option("--batch-size,-b", o.batch_size, "Problems per batch")->capture_default_str();
  cmd.add_option("--lr", o.learning_rate, "Adam learning rate")->capture_default_str();
  cmd.add_option("--adam-epsilon", o.epsilon,
                 "Adam's epsilon (the reference's 1e-8; a large one makes the step follow the "
                 "gradient's size)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--weight-decay", o.weight_decay,
                 "Adam's L2 weight decay (torch's weight_decay; the reference's 0)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd.add_option("--image-size", o.model.image_size,
                 "Panel side fed to the model (default: 224 ResNet, 80 others)");
  cmd.add_option("--meta-alpha", o.meta_alpha,
                 "Weight of the structure-bit BCE (resnet; default 0)");
  cmd.add_option("--meta-beta", o.meta_beta,
                 "Weight of the rule-bit BCE (resnet, wren; default 0, wren 10)");
  cmd.add_option("--seed,-s", o.seed, "Seed of initialisation, dropout and shuffling")
      ->capture_default_str();
}

void bind_machine(CLI::App& cmd, TrainFlags& f) {
  neural::TrainOptions& o = f.options;
  cmd.add_option("-j,--threads", o.threads,
                 "Torch and BLAS threads (default: the machine's, shared among its ranks)")
      ->check(CLI::PositiveNumber);
  cmd.add_option("--loader-threads", o.loader_threads,
                 "Data pipeline workers (default: --threads)");
  cmd.add_option("--device", f.device, "auto | cpu | cuda | cuda:K (cuda: the GPU of LOCAL_RANK)")
      ->capture_default_str();
  cmd.add_option("--precision", f.precision, "fp32 | bf16 (autocast of the forward pass)")
      ->capture_default_str();
  cmd.add_option(
         "--cache-mb", o.cache_mb,
         "Keep this much of the decoded train/val problems in memory; the rest streams from disk")
      ->capture_default_str();
  cmd.add_flag("--flush-denormals", o.flush_denormals,
               "Flush subnormal floats to zero on the CPU (FTZ/DAZ): off as PyTorch; on where "
               "weight decay slows epochs as weights near zero (recorded; a resume repeats it)");
}

void bind_ranks(CLI::App& cmd, TrainFlags& f) {
  neural::TrainOptions& o = f.options;
  cmd.add_option("--nproc", f.nproc,
                 "Data-parallel ranks to start on this machine (batch is per rank; "
                 "several machines: RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT as torchrun; ranks "
                 "on one machine sum through shared memory, RAVE_SHARED_MEMORY=0 for Gloo)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd.add_flag("--no-cpu-bind", f.no_cpu_bind,
               "With --nproc, leave the ranks to the scheduler instead of binding each to its "
               "share of the CPUs (contiguous blocks, as taskset)");
  cmd.add_flag_callback(
      "--no-sync-batch-norm", [&o] { o.sync_batch_norm = false; },
      "With several ranks, batch-norm statistics per rank (PyTorch DDP's default) instead of the "
      "global batch");
  cmd.add_option("--train-configs", f.train_configs,
                 "Configurations to train and validate on (default all)")
      ->delimiter(',');
  cmd.add_option("--test-configs", f.test_configs,
                 "Configurations to test on (default: the training ones)")
      ->delimiter(',');
}

void bind_recipe(CLI::App& cmd, TrainFlags& f) {
  neural::TrainOptions& o = f.options;
  cmd.add_flag("--candidates-only", o.candidates_only,
               "Zero the 8 context panels (answer-set shortcut ablation)");
  cmd.add_flag("--shuffle-candidates", o.shuffle_candidates,
               "Augment: permute each training problem's 8 candidates anew every epoch (off in "
               "the reference)");
  cmd.add_option(
         "--label-embeddings", f.label_embeddings,
         "DRT label vectors: glove (the original's), random (seeded), or a float32 22x300 .npy")
      ->capture_default_str();
  cmd.add_flag("--hflip", o.hflip,
               "Augment: mirror a training problem's panels left-right with probability 1/2 "
               "(PredRNet's recipe)");
  cmd.add_flag("--log-test", o.log_test,
               "Also test after every epoch and record it in metrics.jsonl (diagnosis only; the "
               "checkpoint is still chosen by validation)");
  cmd.add_option("--init-weights", o.init_weights,
                 "Start from these weights: a torch.save'd dict of tensors in rave's names "
                 "(scripts/neural/reference.py)")
      ->check(CLI::ExistingFile);
  cmd.add_option("--batch-norm-init", f.batch_norm_init,
                 "Batch-norm weights at the start: ones (PyTorch since 1.2, LibTorch) or uniform "
                 "(U(0,1), PyTorch before 1.2, where the reference ran)")
      ->check(CLI::IsMember({"ones", kUniform}))
      ->capture_default_str();
  cmd.add_flag_callback(
      "--no-tag", [&o] { o.model.wren_tag = false; }, "WReN without the panel tags");
  cmd.add_flag("--resume", o.resume, "Continue the run in --out from last.pt");
}

}  // namespace

TrainFlags::TrainFlags()
    : device(device_word(options.device)),
      precision(neural::precision_name(options.precision)),
      label_embeddings(options.model.label_table),
      batch_norm_init(options.uniform_batch_norm_init ? kUniform : "ones") {}

void bind_train_flags(CLI::App& cmd, TrainFlags& flags) {
  bind_model_and_data(cmd, flags);
  bind_optimizer(cmd, flags);
  bind_machine(cmd, flags);
  bind_ranks(cmd, flags);
  bind_recipe(cmd, flags);
}

neural::TrainOptions train_options(const TrainFlags& f) {
  neural::TrainOptions o = f.options;
  o.model.kind = model_from_word(f.model);
  if (o.model.drt) {
    neural::LabelTable table = neural::label_table(f.label_embeddings);
    o.model.label_embeddings = std::move(table.values);
    o.model.label_table = table.name;
  }
  o.train_configs = parse_config_list(f.train_configs);
  o.test_configs = parse_config_list(f.test_configs);
  o.data_identity = jobs::dataset_identity(o.data).value_or("");
  o.uniform_batch_norm_init = f.batch_norm_init == kUniform;
  if (o.threads <= 0) o.threads = threads_per_rank();
  o.device = device_from_word(f.device);
  o.precision = precision_from_word(f.precision);
  o.distributed = neural::distributed_env_from_environment();
  return o;
}

}  // namespace rave::cli
