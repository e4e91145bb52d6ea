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
#include "cli/neural/train_options.hpp"
#include "cli/progress.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "neural/epoch_loop.hpp"

namespace rave::apps {
namespace {

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
int run_train(const neural::TrainOptions& o) {
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
  auto f = std::make_shared<cli::TrainFlags>();
  auto* cmd = app.add_subcommand("train",
                                 "Train a baseline of the RAVEN paper (CNN_MLP, ResNet18_MLP, "
                                 "CNN_LSTM, WReN; --drt adds the Dynamic\n"
                                 "Residual Tree) on <data>/<configuration>/RAVEN_<k>_<split>.npz; "
                                 "validates each epoch and reports\n"
                                 "test accuracy per configuration of the best-validation "
                                 "checkpoint. Writes --out/{best,last}.pt,\n"
                                 "metrics.jsonl, curves.png, test.md, test.csv.");
  cli::bind_train_flags(*cmd, *f);
  return [f] {
    if (f->nproc > 1 && !cli::launched_rank()) {
      if (std::getenv("WORLD_SIZE"))
        throw UsageError(
            "--nproc with WORLD_SIZE set: the ranks are started already (torchrun, Slurm); drop "
            "--nproc");
      return cli::launch_ranks(f->nproc, !f->no_cpu_bind);
    }
    return cli::run_as_rank([&] { return run_train(cli::train_options(*f)); });
  };
}

}  // namespace rave::apps
