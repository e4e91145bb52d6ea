// `rave generate`: write a RAVEN dataset (npz + xml per problem) with the original's folder layout,
// its manifest rave.json, resumable after a kill (jobs/dataset.hpp); --unique-only redraws every
// problem the solver proves ambiguous (docs/dataset.md).
#include <cstdio>
#include <memory>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "cli/dataset_options.hpp"
#include "cli/progress.hpp"
#include "jobs/dataset.hpp"
#include "jobs/dataset_command.hpp"
#include "jobs/interrupt.hpp"
#include "solver/solver.hpp"

namespace rave::apps {
namespace {

// Whether the rule-free solver proves the answer unique: the test --unique-only redraws by.
bool provably_unique(const engine::Problem& problem) {
  return solver::proves_answer_unique(problem, solver::solve_rule_free(problem));
}

// The spec of the flags, with --unique-only's acceptance test, checked and its command recorded.
jobs::DatasetSpec to_spec(const cli::DatasetFlags& flags, bool unique_only) {
  jobs::DatasetSpec spec = cli::dataset_spec(flags);
  if (unique_only) {
    spec.accept = provably_unique;
    spec.accept_name = "unique";
  }
  jobs::check_dataset_spec(spec);
  spec.command = jobs::dataset_command(spec);
  return spec;
}

// k mod 10 decides the split, so with fewer than 10 problems a split can stay empty: say so.
void note_empty_splits(const jobs::DatasetSpec& spec) {
  bool has[3] = {false, false, false};
  for (std::uint64_t k = 0; k < spec.num_samples && k < 10; ++k)
    has[static_cast<int>(engine::split_of(k, spec.val, spec.test))] = true;
  const bool no_val = spec.val > 0 && !has[1], no_test = spec.test > 0 && !has[2];
  if (no_val || no_test)
    std::printf(
        "note: with --num-samples %llu the %s split%s no problem (the split is k mod 10, as in the "
        "original: val starts at k = %d, test at k = %d); use 10 or more for all three splits\n",
        static_cast<unsigned long long>(spec.num_samples),
        no_val && no_test ? "val and test"
        : no_val          ? "val"
                          : "test",
        no_val && no_test ? "s get" : " gets", 10 - spec.val - spec.test, 10 - spec.test);
}

void print_report(const jobs::DatasetReport& report, const jobs::DatasetSpec& spec,
                  double seconds) {
  std::printf(
      "wrote %llu problems (%llu skipped as complete) to %s in %.2f s: %.1f problems/s, %.1f MB\n",
      static_cast<unsigned long long>(report.written),
      static_cast<unsigned long long>(report.skipped), cli::shown(spec.dir).c_str(), seconds,
      seconds > 0 ? static_cast<double>(report.written) / seconds : 0.0,
      static_cast<double>(report.bytes) / 1e6);
  // Where the records of a resumed run come from: its own manifest (a shard's is its own, or the
  // merged rave.json once every shard is done) and the journal of the run it continues.
  const std::string records = spec.shard.count > 1
                                  ? "rave.shard-" + std::to_string(spec.shard.index) + "-of-" +
                                        std::to_string(spec.shard.count) + ".json (or rave.json)"
                                  : std::string("rave.json");
  if (spec.resume || report.removed_temporary > 0)
    std::printf(
        "resume: %llu problems verified against their records (%s and the journal) and kept, %llu "
        "redone (files present but not verified), %llu stray temporary files removed\n",
        static_cast<unsigned long long>(report.skipped), records.c_str(),
        static_cast<unsigned long long>(report.redone),
        static_cast<unsigned long long>(report.removed_temporary));
  if (spec.accept)
    std::printf(
        "unique-only: %llu problems of the dataset were redrawn because the solver could not prove "
        "their answer unique "
        "(%.2f%%); this run drew %llu times for %llu problems\n",
        static_cast<unsigned long long>(report.redrawn),
        100.0 * static_cast<double>(report.redrawn) /
            static_cast<double>(spec.num_samples *
                                (spec.configs.empty() ? engine::kNumConfigs : spec.configs.size())),
        static_cast<unsigned long long>(report.draws),
        static_cast<unsigned long long>(report.written));
}

int run_generate(jobs::DatasetSpec spec) {
  const std::size_t n_configs = spec.configs.empty() ? engine::kNumConfigs : spec.configs.size();
  jobs::InterruptGuard interrupt;
  spec.stop = &interrupt.flag();
  const auto shards = static_cast<std::uint64_t>(spec.shard.count);
  const std::uint64_t all = spec.num_samples * n_configs,
                      first = static_cast<std::uint64_t>(spec.shard.index - 1);
  cli::ProgressLine line("generate", all > first ? (all - first + shards - 1) / shards : 0);
  const auto report =
      jobs::write_dataset(spec, [&](const jobs::DatasetProgress& p) { line.update(p.done); });
  line.finish();
  print_report(report, spec, line.elapsed());
  note_empty_splits(spec);
  if (!report.interrupted) return 0;
  std::fflush(stdout);
  std::fprintf(
      stderr,
      "rave: interrupted by %s; the problems in flight were finished. Run the same command with "
      "--resume to continue\n",
      interrupt.signal_name());
  return interrupt.exit_code();
}

}  // namespace

Runner add_generate(CLI::App& app) {
  auto flags = std::make_shared<cli::DatasetFlags>();
  auto unique_only = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand(
      "generate",
      "Generate a RAVEN dataset: <save-dir>/<configuration>/RAVEN_<k>_<split>.npz and .xml, as the "
      "original,\n"
      "and <save-dir>/rave.json, its manifest (parameters, every file's size and CRC-32). Problem "
      "k of a\n"
      "configuration depends only on (seed, configuration, k): the output is byte-identical for "
      "any -j.\n"
      "One writer per folder; SIGINT/SIGTERM stop after the problems in flight, and --resume "
      "continues.");
  cli::bind_dataset_flags(*cmd, *flags);
  cmd->add_flag("--unique-only", *unique_only,
                "Redraw every problem whose answer the solver cannot prove unique without the "
                "rules (a departure "
                "from the original distribution; the redraw rate is reported and recorded)");
  cli::bind_variant_flags(*cmd, *flags);
  return [flags, unique_only] { return run_generate(to_spec(*flags, *unique_only)); };
}

}  // namespace rave::apps
