#include "jobs/dataset_command.hpp"

namespace rave::jobs {
using namespace rave::engine;  // jobs work on their values
namespace {

// The variant's options (docs/variants.md), only those that differ from the original; never
// --shard: every shard of a dataset records the one command, as a one-machine run does.
void append_variant(const DatasetSpec& spec, std::vector<std::string>& out) {
  const engine::Variant& v = spec.variant;
  if (v.grid != engine::kDefaultGrid) out.insert(out.end(), {"--grid", std::to_string(v.grid)});
  if (v.values != 0) out.insert(out.end(), {"--values", std::to_string(v.values)});
  if (v.confounders != 0) out.insert(out.end(), {"--confounders", std::to_string(v.confounders)});
  if (v.regime != engine::Regime::kNeutral)
    out.insert(out.end(), {"--regime", std::string(engine::regime_name(v.regime))});
  if (const std::string hold_out = engine::hold_out_text(v); !hold_out.empty())
    out.insert(out.end(), {"--hold-out", hold_out});
  if (spec.symbolic_only) out.emplace_back("--symbolic-only");
  if (!spec.style.is_original() && !spec.symbolic_only)
    out.insert(out.end(), {"--style", engine::style_text(spec.style)});
}

}  // namespace

std::vector<std::string> dataset_command(const DatasetSpec& spec) {
  std::string configs;
  for (engine::ConfigId id : spec.configs) {
    if (!configs.empty()) configs += ',';
    configs.append(engine::configuration(id)
                       .folder);  // append: g++ 12 warns falsely (-Wrestrict) on "," + string
  }
  std::vector<std::string> out{"rave",          "generate",
                               "--num-samples", std::to_string(spec.num_samples),
                               "--configs",     configs.empty() ? "all" : configs,
                               "--seed",        std::to_string(spec.seed),
                               "--answers",     std::string(engine::strategy_name(spec.answers)),
                               "--val",         std::to_string(spec.val),
                               "--test",        std::to_string(spec.test)};
  if (spec.compress) out.emplace_back("--compress");
  if (spec.accept) out.emplace_back("--unique-only");
  append_variant(spec, out);
  return out;
}

}  // namespace rave::jobs
