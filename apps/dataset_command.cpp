#include "apps/dataset_command.hpp"

namespace rave::apps {

std::vector<std::string> dataset_command(const engine::DatasetSpec& spec) {
  std::string configs;
  for (engine::ConfigId id : spec.configs) {
    if (!configs.empty()) configs += ',';
    configs.append(engine::configuration(id).folder);  // append: g++ 12 warns falsely (-Wrestrict) on "," + string
  }
  std::vector<std::string> out{"rave", "generate", "--num-samples", std::to_string(spec.num_samples),
                               "--configs", configs.empty() ? "all" : configs, "--seed", std::to_string(spec.seed),
                               "--answers", std::string(engine::strategy_name(spec.answers)),
                               "--val", std::to_string(spec.val), "--test", std::to_string(spec.test)};
  if (spec.compress) out.emplace_back("--compress");
  if (spec.accept) out.emplace_back("--unique-only");
  return out;
}

}  // namespace rave::apps
