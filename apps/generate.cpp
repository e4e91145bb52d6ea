// `rave generate`: write a RAVEN dataset (npz + xml per problem) with the original's folder layout,
// its manifest rave.json, resumable after a kill (jobs/dataset.hpp); --unique-only redraws every
// problem the solver proves ambiguous (docs/dataset.md).
#include <cstdio>
#include <memory>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "cli/progress.hpp"
#include "jobs/dataset.hpp"
#include "jobs/dataset_command.hpp"
#include "jobs/interrupt.hpp"
#include "solver/solver.hpp"

namespace rave::apps {
namespace {

// `--values` left out: the spec's value tables.
constexpr int kValuesNotGiven = -1;

struct GenerateArgs {
  std::string num_samples;
  std::string save_dir;
  std::vector<std::string> configs;
  std::string seed = "1234";
  int val = 2;
  int test = 2;
  std::string answers = "raven";
  int threads = cli::default_threads();
  bool compress = false;
  bool resume = false;
  bool unique_only = false;
  int grid = engine::kDefaultGrid;
  int values = kValuesNotGiven;
  int confounders = 0;
  std::string regime = "neutral";
  std::string hold_out;
  bool symbolic_only = false;
  std::string shard = "1/1";
  std::string style = "original";
};

// "K/N" with 1 <= K <= N.
jobs::Shard parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  jobs::Shard shard{.index = 0, .count = 0};
  try {
    std::size_t used_k = 0, used_n = 0;
    if (slash != std::string::npos) {
      shard.index = std::stoi(text.substr(0, slash), &used_k);
      shard.count = std::stoi(text.substr(slash + 1), &used_n);
    }
    if (slash == std::string::npos || used_k != slash || used_n != text.size() - slash - 1)
      shard.count = 0;
  } catch (const std::exception&) {
    shard.count = 0;
  }
  if (shard.count < 1 || shard.index < 1 || shard.index > shard.count)
    throw UsageError("--shard '" + text + "': expected K/N with 1 <= K <= N (e.g. 2/3)");
  return shard;
}

engine::Variant to_variant(const GenerateArgs& args) {
  const std::optional<int> values =
      args.values == kValuesNotGiven ? std::nullopt : std::optional(args.values);
  return engine::variant_from_options(args.grid, values, args.confounders, args.regime,
                                      args.hold_out);
}

// Whether the rule-free solver proves the answer unique: the test --unique-only redraws by.
bool provably_unique(const engine::Problem& problem) {
  return solver::proves_answer_unique(problem, solver::solve_rule_free(problem));
}

jobs::DatasetSpec to_spec(const GenerateArgs& args) {
  jobs::DatasetSpec spec{.dir = args.save_dir,
                         .configs = cli::parse_config_list(args.configs),
                         .num_samples = cli::parse_whole_number(args.num_samples, "--num-samples",
                                                                1, jobs::kMaxDatasetProblems),
                         .seed = cli::parse_whole_number(args.seed, "--seed", 0, UINT64_MAX),
                         .val = args.val,
                         .test = args.test,
                         .answers = cli::parse_answer_strategy(args.answers),
                         .compress = args.compress,
                         .resume = args.resume,
                         .threads = args.threads,
                         .variant = to_variant(args),
                         .symbolic_only = args.symbolic_only,
                         .shard = parse_shard(args.shard),
                         .style = engine::parse_style(args.style)};
  if (args.unique_only) {
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

int run_generate(const GenerateArgs& args) {
  jobs::DatasetSpec spec = to_spec(args);
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

// The options of docs/variants.md.
void add_variant_options(CLI::App& cmd, GenerateArgs& args) {
  cmd.add_option("--grid", args.grid, "Matrix side N: N x N matrices, N*N-1 context panels (3..10)")
      ->capture_default_str();
  cmd.add_option("--values", args.values,
                 "Levels of Type, Size and Color (3..1000; the original style draws up to 5, "
                 "another --style as many as it tells apart, else --symbolic-only)");
  cmd.add_option("--confounders", args.confounders,
                 "Random attributes per entity that follow no rule (0..64)")
      ->capture_default_str();
  cmd.add_option("--regime", args.regime,
                 "Generalization regime: neutral, interpolation, extrapolation, held-out-pairs, "
                 "held-out-attribute")
      ->capture_default_str();
  cmd.add_option("--hold-out", args.hold_out,
                 "held-out-pairs: ATTRIBUTE:RULE[,...] (e.g. Color:Progression); "
                 "held-out-attribute: Type, Size "
                 "or Color");
  cmd.add_flag("--symbolic-only", args.symbolic_only,
               "Write no images (npz without `image`, XML without masks)");
  cmd.add_option("--shard", args.shard, "Write the K-th of N disjoint slices of the problems (K/N)")
      ->capture_default_str();
  cmd.add_option("--style", args.style, cli::style_help())->capture_default_str();
}

}  // namespace

Runner add_generate(CLI::App& app) {
  auto args = std::make_shared<GenerateArgs>();
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
  cmd->add_option("--num-samples,-n", args->num_samples, "Problems per configuration")->required();
  cmd->add_option("--save-dir,-o", args->save_dir, "Output folder (created if missing)")
      ->required();
  cmd->add_option("--configs,-c", args->configs,
                  "Configurations, comma-separated: folder names (center_single, ...), paper names "
                  "(Center, 2x2Grid, 3x3Grid, L-R, U-D, O-IC, O-IG) or all")
      ->delimiter(',');
  cmd->add_option("--seed,-s", args->seed, "Random seed, 0..18446744073709551615")
      ->capture_default_str();
  cmd->add_option("--val", args->val, "Tenths of each configuration's problems in the val split")
      ->capture_default_str()
      ->check(CLI::Range(0, 10));
  cmd->add_option("--test", args->test,
                  "Tenths in the test split (k mod 10 decides, as the original)")
      ->capture_default_str()
      ->check(CLI::Range(0, 10));
  cmd->add_option(
         "--answers,-a", args->answers,
         "Answer-set strategy: raven (original, biased), iraven (attribute bisection tree), "
         "fair (RAVEN-FAIR), balanced (an answer no learner can tell from the candidates alone; "
         "docs/answer-sets.md)")
      ->capture_default_str();
  cmd->add_option("-j,--jobs", args->threads, "Worker threads (output does not depend on it)")
      ->capture_default_str()
      ->check(cli::jobs_range());
  cmd->add_flag("--compress", args->compress, "Deflate the npz files (numpy.savez_compressed)");
  cmd->add_flag("--resume", args->resume,
                "Continue the dataset in --save-dir: the same parameters (checked against "
                "rave.json), keeping "
                "only problems whose files match their recorded size and CRC-32");
  cmd->add_flag("--unique-only", args->unique_only,
                "Redraw every problem whose answer the solver cannot prove unique without the "
                "rules (a departure "
                "from the original distribution; the redraw rate is reported and recorded)");
  add_variant_options(*cmd, *args);
  return [args] { return run_generate(*args); };
}

}  // namespace rave::apps
