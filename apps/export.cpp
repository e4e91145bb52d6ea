// `rave export`: an evaluation set as JSON Lines for language models and other pipelines: the
// lm-raven / I-RAVEN text prompt, its disentangled form, or the symbolic panels as plain data, each
// line with the id, configuration, split, answer and the solver's verdict (evaluation/export.hpp).
#include <cstdio>
#include <memory>
#include <string>

#include "apps/cli_util.hpp"
#include "apps/commands.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "evaluation/export.hpp"
#include "evaluation/smooth.hpp"

namespace rave::apps {
namespace {

struct ExportArgs {
  std::string data, format = "text", output;
  std::optional<std::uint64_t> shuffle_seed;
  bool no_answer = false, drop_ambiguous = false, angle = false;
  double smooth = 1.0;
  int threads = 1;
};

int run_export(const ExportArgs& a) {
  const auto format = evaluation::parse_format(a.format);
  if (!format)
    throw UsageError("--format must be text, text-disentangled or json, not '" + a.format + "'");
  const evaluation::ExportOptions o{.format = *format,
                                    .shuffle_seed = a.shuffle_seed,
                                    .no_answer = a.no_answer,
                                    .drop_ambiguous = a.drop_ambiguous,
                                    .text = {.angle = a.angle, .smooth = a.smooth}};
  evaluation::check_smoothing(a.smooth);
  std::string lines;
  const evaluation::ExportCounts n = evaluation::export_set(a.data, o, a.threads, lines);
  if (a.output.empty() || a.output == "-")
    std::fwrite(lines.data(), 1, lines.size(), stdout);
  else
    write_file_atomic(a.output, lines);
  std::fprintf(stderr, "exported %zu problems as %s%s%s\n", n.written, a.format.c_str(),
               a.output.empty() || a.output == "-" ? "" : (" to " + a.output).c_str(),
               n.dropped
                   ? (", " + std::to_string(n.dropped) + " dropped (not provably unique)").c_str()
                   : "");
  return 0;
}

}  // namespace

Runner add_export(CLI::App& app) {
  auto a = std::make_shared<ExportArgs>();
  auto* cmd = app.add_subcommand(
      "export",
      "Write a set of problems as JSON Lines for language models and other pipelines: one object "
      "per\n"
      "problem with its id, configuration, split, answer and the solver's verdict, and the problem "
      "as\n"
      "the lm-raven / I-RAVEN text prompt (text), one prompt per attribute (text-disentangled), or "
      "the\n"
      "symbolic panels as plain data (json). docs/evaluation.md has the formats.");
  cmd->add_option("data", a->data,
                  "Folder of problems (.xml with the .npz beside it, or .asig), or one file")
      ->required();
  cmd->add_option("--format,-f", a->format, "text | text-disentangled | json")
      ->capture_default_str();
  cmd->add_option("-o,--output", a->output, "Output file (JSON Lines; default standard output)");
  cmd->add_option("--answers-shuffled", a->shuffle_seed,
                  "Show each problem's candidates in an order drawn from SEED and its id (rave "
                  "score takes the same flag)");
  cmd->add_flag("--no-answer", a->no_answer,
                "Leave out the answer (and I-RAVEN's modifications, which reveal it)");
  cmd->add_flag("--drop-ambiguous", a->drop_ambiguous,
                "Keep only the problems whose answer the solver proves unique");
  cmd->add_flag("--angle", a->angle,
                "Text forms: add each entity's Angle (level x 100), as lm-raven's add_angle");
  cmd->add_option(
         "--smooth", a->smooth,
         "Show Type, Size and Color as distributions: P on the true level, 1-P on its neighbours "
         "(I-RAVEN-X's perceptual uncertainty; docs/evaluation.md)")
      ->capture_default_str();
  cmd->add_option("-j,--jobs", a->threads, "Worker threads")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  return [a] { return run_export(*a); };
}

}  // namespace rave::apps
