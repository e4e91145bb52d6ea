// `rave probes DIR -o OUT`: perception probes of a set for vision-language models
// (evaluation/export/probes.hpp, docs/probes.md): per problem, questions about what its pictures show with
// the exact answers, as OUT/probes.jsonl beside the images `rave show --vlm` draws.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "common/error.hpp"
#include "evaluation/export/probes.hpp"

namespace rave::apps {
namespace {

struct ProbeArgs {
  std::string input, output, types, seed = "0";
  bool panels = false;
  int per_type = 1, threads = 1;
};

std::vector<evaluation::ProbeType> type_list(const std::string& text) {
  std::vector<evaluation::ProbeType> out;
  std::size_t at = 0;
  while (!text.empty() && at <= text.size()) {
    const std::size_t comma = text.find(',', at);
    const std::string word = text.substr(at, comma == std::string::npos ? comma : comma - at);
    const auto type = evaluation::parse_probe_type(word);
    if (!type)
      throw UsageError("--types: unknown probe type '" + word +
                       "'; known: count, empty_position, shape, color, same, row_change, "
                       "one_difference");
    out.push_back(*type);
    if (comma == std::string::npos) break;
    at = comma + 1;
  }
  return out;
}

int run_probes(const ProbeArgs& a) {
  if (a.output.empty()) throw UsageError("rave probes needs -o OUT (a folder)");
  const evaluation::ProbeOptions options{
      .panels = a.panels,
      .seed = cli::parse_whole_number(a.seed, "--seed", 0, UINT64_MAX),
      .per_type = a.per_type,
      .types = type_list(a.types)};
  const evaluation::ProbeCounts n =
      evaluation::export_probes(a.input, a.output, options, a.threads);
  std::printf("wrote %zu probes of %zu problems (%zu with none) to %s\n", n.probes, n.problems,
              n.without_probes,
              cli::shown(std::filesystem::path(a.output) / evaluation::kProbeIndex).c_str());
  for (int t = 0; t < evaluation::kProbeTypes; ++t)
    if (n.per_type[static_cast<std::size_t>(t)] > 0)
      std::printf(
          "  %-15s %zu\n",
          std::string(evaluation::probe_type_name(static_cast<evaluation::ProbeType>(t))).c_str(),
          n.per_type[static_cast<std::size_t>(t)]);
  return 0;
}

}  // namespace

Runner add_probes(CLI::App& app) {
  auto a = std::make_shared<ProbeArgs>();
  auto* cmd = app.add_subcommand(
      "probes",
      "Perception probes for vision-language models: per problem, questions about what its "
      "pictures show (counts, empty places, shapes, colours, equal attributes, what changes along "
      "a row, the candidate one attribute away from the answer) with exact answers, only where the "
      "pictures determine them, their answers balanced per type: OUT/probes.jsonl and the images "
      "of `rave show --vlm` (docs/probes.md).");
  cmd->add_option("problems", a->input,
                  "A folder of problems (.xml with the .npz beside it, or .asig) or one file")
      ->required();
  cmd->add_option("-o,--output", a->output,
                  "The probe folder (replaced whole if it holds probes.jsonl)");
  cmd->add_flag("--panels", a->panels, "Also each panel as its own PNG, and the panels prompts");
  cmd->add_option("--per-type", a->per_type, "Questions of each type per problem")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--types", a->types,
                  "Comma-separated probe types (default: all): count, empty_position, shape, "
                  "color, same, row_change, one_difference");
  cmd->add_option("--seed", a->seed, "The draw among a problem's questions")->capture_default_str();
  cmd->add_option("-j,--jobs", a->threads, "Worker threads (the output is the same)")
      ->capture_default_str()
      ->check(cli::jobs_range());
  return [a] { return run_probes(*a); };
}

}  // namespace rave::apps
