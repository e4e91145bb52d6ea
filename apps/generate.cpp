// `rave generate`: write a RAVEN dataset (npz + xml per problem) with the original's folder layout.
#include <cstdio>
#include <memory>

#include "apps/cli_util.hpp"
#include "apps/commands.hpp"
#include "apps/progress.hpp"
#include "engine/dataset.hpp"

namespace rave::apps {
namespace {

struct GenerateArgs {
  std::int64_t num_samples = 0;
  std::string save_dir;
  std::vector<std::string> configs;
  std::uint64_t seed = 1234;
  int val = 2;
  int test = 2;
  std::string answers = "raven";
  int threads = default_threads();
  bool compress = false;
  bool resume = false;
};

engine::DatasetSpec to_spec(const GenerateArgs& args) {
  if (args.num_samples <= 0) throw UsageError("--num-samples must be a positive number of problems");
  return {.dir = args.save_dir,
          .configs = parse_config_list(args.configs),
          .num_samples = static_cast<std::uint64_t>(args.num_samples),
          .seed = args.seed,
          .val = args.val,
          .test = args.test,
          .answers = parse_answer_strategy(args.answers),
          .compress = args.compress,
          .resume = args.resume,
          .threads = args.threads};
}

int run_generate(const GenerateArgs& args) {
  const engine::DatasetSpec spec = to_spec(args);
  const std::size_t n_configs = spec.configs.empty() ? engine::kNumConfigs : spec.configs.size();
  ProgressLine line("generate", spec.num_samples * n_configs);
  const auto report = engine::write_dataset(spec, [&](const engine::DatasetProgress& p) { line.update(p.done); });
  line.finish();
  const double seconds = line.elapsed();
  std::printf("wrote %llu problems (%llu skipped as complete) to %s in %.2f s: %.1f problems/s, %.1f MB\n",
              static_cast<unsigned long long>(report.written), static_cast<unsigned long long>(report.skipped),
              spec.dir.c_str(), seconds, seconds > 0 ? static_cast<double>(report.written) / seconds : 0.0,
              static_cast<double>(report.bytes) / 1e6);
  return 0;
}

}  // namespace

Runner add_generate(CLI::App& app) {
  auto args = std::make_shared<GenerateArgs>();
  auto* cmd = app.add_subcommand(
      "generate",
      "Generate a RAVEN dataset: <save-dir>/<configuration>/RAVEN_<k>_<split>.npz and .xml, as the original.\n"
      "Problem k of a configuration depends only on (seed, configuration, k): the output is byte-identical\n"
      "for any -j, and --resume continues a killed run.");
  cmd->add_option("--num-samples,-n", args->num_samples, "Problems per configuration")->required();
  cmd->add_option("--save-dir,-o", args->save_dir, "Output folder (created if missing)")->required();
  cmd->add_option("--configs,-c", args->configs,
                  "Configurations, comma-separated: folder names (center_single, ...), paper names "
                  "(Center, 2x2Grid, 3x3Grid, L-R, U-D, O-IC, O-IG) or all")
      ->delimiter(',');
  cmd->add_option("--seed,-s", args->seed, "Random seed")->capture_default_str();
  cmd->add_option("--val", args->val, "Tenths of each configuration's problems in the val split")
      ->capture_default_str()->check(CLI::Range(0, 10));
  cmd->add_option("--test", args->test, "Tenths in the test split (k mod 10 decides, as the original)")
      ->capture_default_str()->check(CLI::Range(0, 10));
  cmd->add_option("--answers,-a", args->answers,
                  "Answer-set strategy: raven (original, biased), iraven (attribute bisection tree), "
                  "fair (RAVEN-FAIR)")
      ->capture_default_str();
  cmd->add_option("-j,--jobs", args->threads, "Worker threads (output does not depend on it)")
      ->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_flag("--compress", args->compress, "Deflate the npz files (numpy.savez_compressed)");
  cmd->add_flag("--resume", args->resume, "Skip problems whose .npz and .xml already exist");
  return [args] { return run_generate(*args); };
}

}  // namespace rave::apps
