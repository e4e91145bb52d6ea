// `rave export`: an evaluation set as JSON Lines for language models and other pipelines: the text
// prompts of IBM's I-RAVEN / I-RAVEN-X code or of lm-raven, each as that code writes them, one
// prompt per branch, or the symbolic panels as plain data, each line with the id, configuration,
// split, answer and the solver's verdict (evaluation/export/export.hpp, docs/evaluation.md).
#include <array>
#include <charconv>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "cli/export_options.hpp"
#include "cli/python_forward.hpp"
#include "common/atomic_writer.hpp"
#include "common/error.hpp"
#include "evaluation/export/export.hpp"

namespace rave::apps {
namespace {

// A double as its shortest round-trip digits (the value a flag was given as, passed on).
std::string shortest_text(double value) {
  std::array<char, 32> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value).ptr;
  return {buffer.data(), end};
}

// `-f hf`: the Python package writes the hub's parquet (rave.hf); the text and json flags do not
// apply there.
[[noreturn]] void run_hf_export(const cli::ExportFlags& a, const CLI::App& cmd) {
  for (const char* flag :
       {"--style", "--classmode", "--rows-shown", "--no-offsets", "--no-scaling", "--angle",
        "--uncertainty", "--uncertainty-range", "--uncertainty-seed", "--prefix",
        "--answers-shuffled", "--answer-first", "--no-answer", "--drop-ambiguous"})
    if (cmd.count(flag) > 0) throw UsageError(std::string(flag) + " does not apply to --format hf");
  if (a.output.empty() || a.output == "-")
    throw UsageError("--format hf writes a folder of parquet shards: give it with -o OUT");
  cli::exec_python_rave({"export-hf", a.data, "-o", a.output});
}

// `--harness NAME`: the Python package writes the task folder (rave.harness), from this command's own
// text export (or `rave show --vlm` for the image harnesses), so the prompts are these; the prompt
// flags pass through.
[[noreturn]] void run_harness_export(const cli::ExportFlags& a, const CLI::App& cmd) {
  for (const char* flag : {"--format", "--classmode", "--answer-first", "--no-answer"})
    if (cmd.count(flag) > 0)
      throw UsageError(std::string(flag) +
                       " does not apply to --harness (a harness scores multiple choice against "
                       "the answer, in the order of --answers-shuffled)");
  if (a.output.empty() || a.output == "-")
    throw UsageError("--harness writes a task folder: give it with -o OUT");
  if (a.harness == "lmms-eval" || a.harness == "vlmevalkit")
    for (const char* flag :
         {"--style", "--rows-shown", "--no-offsets", "--no-scaling", "--angle", "--uncertainty",
          "--uncertainty-range", "--uncertainty-seed", "--prefix"})
      if (cmd.count(flag) > 0)
        throw UsageError(std::string(flag) + " does not apply to --harness " + a.harness +
                         " (it shows the images of rave show --vlm)");
  if (a.harness != "lm-eval" && cmd.count("--samples") > 0)
    throw UsageError("--samples is for --harness lm-eval (inspect: -T epochs=K)");
  std::vector<std::string> args{"export-harness",         a.harness, a.data, "-o", a.output, "-j",
                                std::to_string(a.threads)};
  const auto pass = [&](const char* flag, const std::string& value) {
    if (cmd.count(flag) > 0) args.insert(args.end(), {flag, value});
  };
  pass("--style", a.style);
  pass("--rows-shown", a.rows);
  pass("--uncertainty-range", std::to_string(a.options.text.uncertainty_range));
  pass("--uncertainty-seed", a.uncertainty_seed);
  pass("--task-name", a.task_name);
  pass("--split", a.split);
  pass("--samples", std::to_string(a.samples));
  const evaluation::TextOptions& text = a.options.text;
  if (text.uncertainty) pass("--uncertainty", shortest_text(*text.uncertainty));
  if (text.prefix) pass("--prefix", *text.prefix);
  if (a.shuffle_seed) pass("--answers-shuffled", *a.shuffle_seed);
  for (const char* flag : {"--no-offsets", "--no-scaling", "--angle", "--drop-ambiguous"})
    if (cmd.count(flag) > 0) args.emplace_back(flag);
  cli::exec_python_rave(args);
}

int run_export(const cli::ExportFlags& a, const CLI::App& cmd) {
  if (a.format == "hf") run_hf_export(a, cmd);
  if (!a.harness.empty()) run_harness_export(a, cmd);
  for (const char* flag : {"--task-name", "--split", "--samples"})
    if (cmd.count(flag) > 0) throw UsageError(std::string(flag) + " is for --harness only");
  const evaluation::ExportOptions o = cli::export_options(a);
  const bool to_stdout = a.output.empty() || a.output == "-";
  std::optional<AtomicFileWriter> file;  // written as made: memory does not grow with the set
  if (!to_stdout) file.emplace(a.output);
  const evaluation::ExportCounts n =
      evaluation::export_set(a.data, o, a.threads, [&](std::string_view piece) {
        if (file)
          file->write(piece);
        else
          std::fwrite(piece.data(), 1, piece.size(), stdout);
      });
  if (file) file->commit();
  std::fprintf(stderr, "exported %zu problems as %s%s%s\n", n.written, a.format.c_str(),
               a.output.empty() || a.output == "-" ? "" : (" to " + a.output).c_str(),
               n.dropped
                   ? (", " + std::to_string(n.dropped) + " dropped (not provably unique)").c_str()
                   : "");
  return 0;
}

}  // namespace

Runner add_export(CLI::App& app) {
  auto a = std::make_shared<cli::ExportFlags>();
  auto* cmd = app.add_subcommand(
      "export",
      "Write a set of problems as JSON Lines for language models and other pipelines: one object\n"
      "per problem with its id, configuration, split, answer and the solver's verdict, and the\n"
      "problem as the text prompt of IBM's or lm-raven's code (text), one prompt per branch\n"
      "(text-disentangled), or the symbolic panels as plain data (json); or a dataset folder as\n"
      "Hugging Face parquet shards in HuggingFaceM4/RAVEN's schema (hf: python -m rave export-hf,\n"
      "which takes --configs and --shard-rows); or, with --harness, a task folder for lm-eval,\n"
      "inspect, lmms-eval or VLMEvalKit (docs/harnesses.md). Reads rave's folders and IBM's\n"
      "I-RAVEN / I-RAVEN-X JSON. docs/evaluation.md has the formats.");
  cli::bind_export_flags(*cmd, *a);
  return [a, cmd] { return run_export(*a, *cmd); };
}

}  // namespace rave::apps
