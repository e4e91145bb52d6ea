// `rave probes DIR -o OUT`: perception probes of a set for vision-language models
// (evaluation/export/probes.hpp, docs/probes.md): per problem, questions about what its pictures show with
// the exact answers, as OUT/probes.jsonl beside the images `rave show --vlm` draws.
#include <cstdio>
#include <memory>
#include <string>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "cli/export_options.hpp"
#include "common/error.hpp"
#include "evaluation/export/probes.hpp"

namespace rave::apps {
namespace {

int run_probes(const cli::ProbeFlags& a) {
  if (a.output.empty()) throw UsageError("rave probes needs -o OUT (a folder)");
  const evaluation::ProbeOptions options = cli::probe_options(a);
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
  auto a = std::make_shared<cli::ProbeFlags>();
  auto* cmd = app.add_subcommand(
      "probes",
      "Perception probes for vision-language models: per problem, questions about what its "
      "pictures show (counts, empty places, shapes, colours, equal attributes, what changes along "
      "a row, the candidate one attribute away from the answer) with exact answers, only where the "
      "pictures determine them, their answers balanced per type: OUT/probes.jsonl and the images "
      "of `rave show --vlm` (docs/probes.md).");
  cli::bind_probe_flags(*cmd, *a);
  return [a] { return run_probes(*a); };
}

}  // namespace rave::apps
