// `rave demo`: the main job on a small built-in default. Generates a few problems per
// configuration, writes a contact sheet for the first of each, and prints where everything went
// and what the problems contain (rules, answer, context-blind audit).
#include <cstdio>
#include <memory>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "cli/dataset_options.hpp"
#include "common/atomic_file.hpp"
#include "engine/audit.hpp"
#include "engine/formats/png.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/render/render.hpp"
#include "engine/render/sheet.hpp"
#include "jobs/dataset.hpp"
#include "jobs/dataset_command.hpp"

namespace rave::apps {
namespace {

std::string rules_text(const engine::Problem& p) {
  std::string out;
  for (std::size_t c = 0; c < p.rules.size(); ++c)
    for (const auto& rule : p.rules[c].rules) {
      if (rule.name == engine::RuleName::kConstant) continue;
      if (!out.empty()) out += ", ";
      if (p.rules.size() > 1)
        out += std::string(engine::configuration(p.config).components[c].name) + ":";
      out += std::string(engine::rule_attr_text(rule.attr)) + " " +
             std::string(engine::rule_name_text(rule.name));
    }
  return out.empty() ? "all Constant" : out;
}

void describe_config(const jobs::DatasetSpec& spec, engine::ConfigId id,
                     engine::BlindAudit& audit) {
  const auto dir = spec.dir / engine::configuration(id).folder;
  std::vector<engine::Problem> problems;
  for (std::uint64_t k = 0; k < spec.num_samples; ++k)
    problems.push_back(engine::read_problem(
        dir / (engine::problem_stem(k, engine::split_of(k, spec.val, spec.test)) + ".xml")));
  const auto a = engine::context_blind_audit(problems);
  audit.problems += a.problems;
  audit.hits += a.hits;
  const auto sheet = dir / "RAVEN_0_train.png";
  write_file_atomic(sheet, engine::encode_gray_png(engine::problem_sheet(
                               engine::render_problem(problems[0]), problems[0].target)));
  std::printf("  %-8s %-40s problem 0: answer %d, rules: %s\n",
              std::string(engine::configuration(id).paper_name).c_str(), dir.string().c_str(),
              *problems[0].target, rules_text(problems[0]).c_str());
}

int run_demo(jobs::DatasetSpec spec) {
  spec.command = jobs::dataset_command(spec);
  const auto report = jobs::write_dataset(spec);
  std::printf(
      "rave demo: %llu problems (%s answer sets, seed %llu) in "
      "%s/<configuration>/RAVEN_<k>_<split>.{npz,xml}\n",
      static_cast<unsigned long long>(report.written),
      std::string(engine::strategy_name(spec.answers)).c_str(),
      static_cast<unsigned long long>(spec.seed), cli::shown(spec.dir).c_str());
  engine::BlindAudit audit;
  for (const auto& config : engine::all_configurations()) describe_config(spec, config.id, audit);
  std::printf(
      "each folder also has RAVEN_0_train.png, a sheet of its first problem (answer framed)\n");
  std::printf(
      "context-blind audit (answer found from the candidates alone): %.1f%% of %d problems "
      "(about 98%% expected for raven, 12.5%% for iraven)\n",
      100.0 * audit.accuracy(), audit.problems);
  std::printf(
      "next: rave generate --help, rave show %s/center_single/RAVEN_0_train.npz -o sheet.png\n",
      cli::shown(spec.dir).c_str());
  return 0;
}

}  // namespace

// A small dataset of the spec's defaults (its seed and answers unless given), in rave-demo/.
Runner add_demo(CLI::App& app) {
  auto flags = std::make_shared<cli::DatasetFlags>();
  flags->spec.dir = "rave-demo";
  flags->num_samples = "10";
  auto* cmd = app.add_subcommand("demo",
                                 "Generate a small sample of every configuration and describe it "
                                 "(the quickest way to see what rave makes)");
  cmd->add_option("-o,--save-dir", flags->spec.dir, "Output folder")->capture_default_str();
  cmd->add_option("-n,--num-samples", flags->num_samples, "Problems per configuration")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd->add_option("-a,--answers", flags->answers, "raven, iraven, fair or balanced")
      ->capture_default_str();
  cmd->add_option("-s,--seed", flags->seed, "Random seed, 0..18446744073709551615")
      ->capture_default_str();
  return [flags] { return run_demo(cli::dataset_spec(*flags)); };
}

}  // namespace rave::apps
