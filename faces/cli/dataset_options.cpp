#include "cli/dataset_options.hpp"

#include <cstdint>
#include <exception>

#include "cli/cli_util.hpp"
#include "common/error.hpp"
#include "engine/answers/answer_set.hpp"
#include "engine/model/style.hpp"
#include "jobs/dataset_command.hpp"

namespace rave::cli {
namespace {

std::string shard_text(const jobs::Shard& shard) {
  return std::to_string(shard.index) + "/" + std::to_string(shard.count);
}

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

}  // namespace

DatasetFlags::DatasetFlags()
    : seed(std::to_string(spec.seed)),
      answers(engine::strategy_name(spec.answers)),
      regime(engine::regime_name(spec.variant.regime)),
      shard(shard_text(spec.shard)),
      style(engine::style_text(spec.style)) {
  spec.threads = default_threads();
}

void bind_dataset_flags(CLI::App& cmd, DatasetFlags& f) {
  cmd.add_option("--num-samples,-n", f.num_samples, "Problems per configuration")->required();
  cmd.add_option("--save-dir,-o", f.spec.dir, "Output folder (created if missing)")->required();
  cmd.add_option("--configs,-c", f.configs,
                 "Configurations, comma-separated: folder names (center_single, ...), paper names "
                 "(Center, 2x2Grid, 3x3Grid, L-R, U-D, O-IC, O-IG) or all")
      ->delimiter(',');
  cmd.add_option("--seed,-s", f.seed, "Random seed, 0..18446744073709551615")
      ->capture_default_str();
  cmd.add_option("--val", f.spec.val, "Tenths of each configuration's problems in the val split")
      ->capture_default_str()
      ->check(CLI::Range(0, 10));
  cmd.add_option("--test", f.spec.test,
                 "Tenths in the test split (k mod 10 decides, as the original)")
      ->capture_default_str()
      ->check(CLI::Range(0, 10));
  cmd.add_option("--answers,-a", f.answers,
                 "Answer-set strategy: raven (original, biased), iraven (attribute bisection "
                 "tree), fair (RAVEN-FAIR), balanced (an answer no learner can tell from the "
                 "candidates alone; docs/answer-sets.md)")
      ->capture_default_str();
  cmd.add_option("-j,--jobs", f.spec.threads, "Worker threads (output does not depend on it)")
      ->capture_default_str()
      ->check(jobs_range());
  cmd.add_flag("--compress", f.spec.compress, "Deflate the npz files (numpy.savez_compressed)");
  cmd.add_flag("--resume", f.spec.resume,
               "Continue the dataset in --save-dir: the same parameters (checked against "
               "rave.json), keeping only problems whose files match their recorded size and "
               "CRC-32");
}

void bind_variant_flags(CLI::App& cmd, DatasetFlags& f) {
  cmd.add_option("--grid", f.spec.variant.grid,
                 "Matrix side N: N x N matrices, N*N-1 context panels (3..10)")
      ->capture_default_str();
  cmd.add_option("--values", f.values,
                 "Levels of Type, Size and Color (3..1000; the original style draws up to 5, "
                 "another --style as many as it tells apart, else --symbolic-only)");
  cmd.add_option("--confounders", f.spec.variant.confounders,
                 "Random attributes per entity that follow no rule (0..64)")
      ->capture_default_str();
  cmd.add_option("--regime", f.regime,
                 "Generalization regime: neutral, interpolation, extrapolation, held-out-pairs, "
                 "held-out-attribute")
      ->capture_default_str();
  cmd.add_option("--hold-out", f.hold_out,
                 "held-out-pairs: ATTRIBUTE:RULE[,...] (e.g. Color:Progression); "
                 "held-out-attribute: Type, Size or Color");
  cmd.add_flag("--symbolic-only", f.spec.symbolic_only,
               "Write no images (npz without `image`, XML without masks)");
  cmd.add_option("--shard", f.shard, "Write the K-th of N disjoint slices of the problems (K/N)")
      ->capture_default_str();
  cmd.add_option("--style", f.style, style_help())->capture_default_str();
}

jobs::DatasetSpec dataset_spec(const DatasetFlags& f) {
  jobs::DatasetSpec spec = f.spec;
  spec.configs = parse_config_list(f.configs);
  spec.num_samples =
      parse_whole_number(f.num_samples, "--num-samples", 1, jobs::kMaxDatasetProblems);
  spec.seed = parse_whole_number(f.seed, "--seed", 0, UINT64_MAX);
  spec.answers = parse_answer_strategy(f.answers);
  spec.variant = engine::variant_from_options(f.spec.variant.grid, f.values,
                                              f.spec.variant.confounders, f.regime, f.hold_out);
  spec.shard = parse_shard(f.shard);
  spec.style = engine::parse_style(f.style);
  return spec;
}

}  // namespace rave::cli
