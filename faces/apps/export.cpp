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
#include "cli/python_forward.hpp"
#include "common/atomic_writer.hpp"
#include "common/error.hpp"
#include "evaluation/export/export.hpp"

namespace rave::apps {
namespace {

struct ExportArgs {
  std::string data, format = "text", output, style = "ibm-2025", rows = "3", classmode = "disc";
  std::optional<std::string> shuffle_seed;
  std::optional<double> uncertainty;
  std::optional<std::string> prefix;
  std::string uncertainty_seed = "0";
  std::string harness, task_name = "rave", split;  // --harness: the task folder (rave.harness)
  int samples = 1;
  int uncertainty_range = 0;
  bool no_answer = false, drop_ambiguous = false, angle = false, answer_first = false;
  bool no_offsets = false, no_scaling = false;
  int threads = 1;
};

std::optional<std::uint64_t> seed_of(const std::optional<std::string>& text, const char* flag) {
  if (!text) return std::nullopt;
  return cli::parse_whole_number(*text, flag, 0, UINT64_MAX);
}

// A double as its shortest round-trip digits (the value a flag was given as, passed on).
std::string shortest_text(double value) {
  std::array<char, 32> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value).ptr;
  return {buffer.data(), end};
}

int parse_rows(const std::string& text) {
  if (text == "all") return 0;
  try {
    std::size_t used = 0;
    const int k = std::stoi(text, &used);
    if (used == text.size() && k >= 1) return k;
  } catch (const std::exception&) {
  }
  throw UsageError("--rows-shown must be a number of rows (1, 2, ...) or all, not '" + text + "'");
}

evaluation::ExportOptions export_options(const ExportArgs& a) {
  const auto format = evaluation::parse_format(a.format);
  if (!format)
    throw UsageError("--format must be text, text-disentangled, json or hf, not '" + a.format +
                     "'");
  const auto style = evaluation::parse_style(a.style);
  if (!style)
    throw UsageError("--style must be ibm-2025, ibm-2024 or lm-raven, not '" + a.style + "'");
  const auto classmode = evaluation::parse_classmode(a.classmode);
  if (!classmode) throw UsageError("--classmode must be disc or pred, not '" + a.classmode + "'");
  if (a.shuffle_seed && a.answer_first)
    throw UsageError("--answers-shuffled and --answer-first each set the order; give one");
  const evaluation::TextOptions text{.style = *style,
                                     .rows_shown = parse_rows(a.rows),
                                     .offset = !a.no_offsets,
                                     .scaling = !a.no_scaling,
                                     .angle = a.angle,
                                     .uncertainty = a.uncertainty,
                                     .uncertainty_range = a.uncertainty_range,
                                     .prefix = a.prefix,
                                     .classmode = *classmode};
  evaluation::check_text_options(text);
  if (text.uncertainty && *format != evaluation::ExportFormat::kText)
    throw UsageError("--uncertainty is for --format text only (as in IBM's code)");
  return {.format = *format,
          .shuffle_seed = seed_of(a.shuffle_seed, "--answers-shuffled"),
          .no_answer = a.no_answer,
          .drop_ambiguous = a.drop_ambiguous,
          .answer_first = a.answer_first,
          .uncertainty_seed =
              cli::parse_whole_number(a.uncertainty_seed, "--uncertainty-seed", 0, UINT64_MAX),
          .text = text};
}

// `-f hf`: the Python package writes the hub's parquet (rave.hf); the text and json flags do not
// apply there.
[[noreturn]] void run_hf_export(const ExportArgs& a, const CLI::App& cmd) {
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
[[noreturn]] void run_harness_export(const ExportArgs& a, const CLI::App& cmd) {
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
  pass("--uncertainty-range", std::to_string(a.uncertainty_range));
  pass("--uncertainty-seed", a.uncertainty_seed);
  pass("--task-name", a.task_name);
  pass("--split", a.split);
  pass("--samples", std::to_string(a.samples));
  if (a.uncertainty) pass("--uncertainty", shortest_text(*a.uncertainty));
  if (a.prefix) pass("--prefix", *a.prefix);
  if (a.shuffle_seed) pass("--answers-shuffled", *a.shuffle_seed);
  for (const char* flag : {"--no-offsets", "--no-scaling", "--angle", "--drop-ambiguous"})
    if (cmd.count(flag) > 0) args.emplace_back(flag);
  cli::exec_python_rave(args);
}

int run_export(const ExportArgs& a, const CLI::App& cmd) {
  if (a.format == "hf") run_hf_export(a, cmd);
  if (!a.harness.empty()) run_harness_export(a, cmd);
  for (const char* flag : {"--task-name", "--split", "--samples"})
    if (cmd.count(flag) > 0) throw UsageError(std::string(flag) + " is for --harness only");
  const evaluation::ExportOptions o = export_options(a);
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

void add_prompt_options(CLI::App* cmd, ExportArgs& a) {
  cmd->add_option("--style", a.style,
                  "Whose code the text forms reproduce: ibm-2025 (IBM 5b3c5e4), ibm-2024 (IBM "
                  "2ada9bb) or lm-raven (500e6f7); docs/evaluation.md#prompt-styles")
      ->capture_default_str();
  cmd->add_option("--classmode", a.classmode,
                  "ibm styles: IBM's classmode: disc (Solver_disc: the answer set, the model names "
                  "one) or pred (Solver_pred, the protocol of IBM's GPT-4 / Llama-3 configs: no "
                  "answer set, the model writes the missing panel's numbers)")
      ->capture_default_str();
  cmd->add_option("--rows-shown", a.rows,
                  "Rows of the matrix shown, the last K relabelled from row 1 (IBM's nshow, "
                  "lm-raven's n: 1, 2 or 3), or all")
      ->capture_default_str();
  cmd->add_flag("--no-offsets", a.no_offsets,
                "ibm-2025: Type and Size levels as they are (IBM's offset=False; I-RAVEN-X's)");
  cmd->add_flag("--no-scaling", a.no_scaling,
                "ibm-2025: no Size / 10, Color * 10, Angle * 100 (IBM's scaling=False)");
  cmd->add_flag("--angle", a.angle, "Add each entity's Angle and an angle branch (add_angle)");
  cmd->add_option("--uncertainty", a.uncertainty,
                  "ibm-2025, text: every value as IBM's <p::v-1,p::v,p::v+1>, p ~ U[U, 1], the "
                  "rest split at random (center_single only, as in IBM's code)");
  cmd->add_option("--uncertainty-range", a.uncertainty_range,
                  "IBM's maxval_uncert: values wrap at 0 and M - 1 (default: the problem's "
                  "--values, 10 for the original tables)");
  cmd->add_option("--uncertainty-seed", a.uncertainty_seed,
                  "Seed of the draws: each problem's numpy seed is drawn from it and its id, and "
                  "written on its line")
      ->capture_default_str();
  cmd->add_option("--prefix", a.prefix,
                  "Text before the matrix (default: the style's own: \"Only return the missing "
                  "numbers!\\n\", lm-raven \"let's think step by step. \")");
}

}  // namespace

Runner add_export(CLI::App& app) {
  auto a = std::make_shared<ExportArgs>();
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
  cmd->add_option("data", a->data,
                  "Folder of problems (.xml with the .npz beside it, or .asig), one file, or an "
                  "IBM I-RAVEN-X .json")
      ->required();
  cmd->add_option("--format,-f", a->format, "text | text-disentangled | json | hf")
      ->capture_default_str();
  cmd->add_option("-o,--output", a->output, "Output file (JSON Lines; default standard output)");
  add_prompt_options(cmd, *a);
  cmd->add_option("--answers-shuffled", a->shuffle_seed,
                  "Show each problem's candidates in an order drawn from SEED and its id (written "
                  "on each line as answers_shuffled)");
  cmd->add_flag("--answer-first", a->answer_first,
                "Swap the answer into candidate 0, as lm-raven's task.py writes its files");
  cmd->add_flag("--no-answer", a->no_answer,
                "Leave out the answer (and I-RAVEN's modifications, which reveal it)");
  cmd->add_flag("--drop-ambiguous", a->drop_ambiguous,
                "Keep only the problems whose answer the solver proves unique");
  cmd->add_option("--harness", a->harness,
                  "Write a task folder for an evaluation harness instead (-o OUT): lm-eval, "
                  "inspect, lmms-eval or vlmevalkit (python -m rave export-harness; "
                  "docs/harnesses.md); DIR may be a `rave probes` folder (docs/probes.md)")
      ->check(CLI::IsMember({"lm-eval", "inspect", "lmms-eval", "vlmevalkit"}));
  cmd->add_option("--task-name", a->task_name,
                  "--harness: the tasks' prefix (lm-eval, lmms-eval; VLMEvalKit's dataset names)")
      ->capture_default_str();
  cmd->add_option("--split", a->split, "--harness: only the problems of this split")
      ->check(CLI::IsMember({"train", "val", "test"}));
  cmd->add_option("--samples", a->samples,
                  "--harness lm-eval: samples per chat query, voted (IBM's nreturn)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("-j,--jobs", a->threads, "Worker threads")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  return [a, cmd] { return run_export(*a, *cmd); };
}

}  // namespace rave::apps
