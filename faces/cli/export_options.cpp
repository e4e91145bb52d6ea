#include "cli/export_options.hpp"

#include <cstdint>
#include <exception>
#include <vector>

#include "cli/cli_util.hpp"
#include "common/error.hpp"
#include "engine/model/style.hpp"

namespace rave::cli {
namespace {

std::optional<std::uint64_t> seed_of(const std::optional<std::string>& text, const char* flag) {
  if (!text) return std::nullopt;
  return parse_whole_number(*text, flag, 0, UINT64_MAX);
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

// The prompt's text forms (TextOptions), in the order --help lists them.
void bind_prompt_flags(CLI::App& cmd, ExportFlags& f) {
  evaluation::TextOptions& t = f.options.text;
  cmd.add_option("--style", f.style,
                 "Whose code the text forms reproduce: ibm-2025 (IBM 5b3c5e4), ibm-2024 (IBM "
                 "2ada9bb) or lm-raven (500e6f7); docs/evaluation.md#prompt-styles")
      ->capture_default_str();
  cmd.add_option("--classmode", f.classmode,
                 "ibm styles: IBM's classmode: disc (Solver_disc: the answer set, the model names "
                 "one) or pred (Solver_pred, the protocol of IBM's GPT-4 / Llama-3 configs: no "
                 "answer set, the model writes the missing panel's numbers)")
      ->capture_default_str();
  cmd.add_option("--rows-shown", f.rows,
                 "Rows of the matrix shown, the last K relabelled from row 1 (IBM's nshow, "
                 "lm-raven's n: 1, 2 or 3), or all")
      ->capture_default_str();
  cmd.add_flag_callback(
      "--no-offsets", [&t] { t.offset = false; },
      "ibm-2025: Type and Size levels as they are (IBM's offset=False; I-RAVEN-X's)");
  cmd.add_flag_callback(
      "--no-scaling", [&t] { t.scaling = false; },
      "ibm-2025: no Size / 10, Color * 10, Angle * 100 (IBM's scaling=False)");
  cmd.add_flag("--angle", t.angle, "Add each entity's Angle and an angle branch (add_angle)");
  cmd.add_option("--uncertainty", t.uncertainty,
                 "ibm-2025, text: every value as IBM's <p::v-1,p::v,p::v+1>, p ~ U[U, 1], the "
                 "rest split at random (center_single only, as in IBM's code)");
  cmd.add_option("--uncertainty-range", t.uncertainty_range,
                 "IBM's maxval_uncert: values wrap at 0 and M - 1 (default: the problem's "
                 "--values, 10 for the original tables)");
  cmd.add_option("--uncertainty-seed", f.uncertainty_seed,
                 "Seed of the draws: each problem's numpy seed is drawn from it and its id, and "
                 "written on its line")
      ->capture_default_str();
  cmd.add_option("--prefix", t.prefix,
                 "Text before the matrix (default: the style's own: \"Only return the missing "
                 "numbers!\\n\", lm-raven \"let's think step by step. \")");
}

// The order of the candidates and which problems and answers a line holds.
void bind_answer_flags(CLI::App& cmd, ExportFlags& f) {
  evaluation::ExportOptions& o = f.options;
  cmd.add_option("--answers-shuffled", f.shuffle_seed,
                 "Show each problem's candidates in an order drawn from SEED and its id (written "
                 "on each line as answers_shuffled)");
  cmd.add_flag("--answer-first", o.answer_first,
               "Swap the answer into candidate 0, as lm-raven's task.py writes its files");
  cmd.add_flag("--no-answer", o.no_answer,
               "Leave out the answer (and I-RAVEN's modifications, which reveal it)");
  cmd.add_flag("--drop-ambiguous", o.drop_ambiguous,
               "Keep only the problems whose answer the solver proves unique");
}

void bind_harness_flags(CLI::App& cmd, ExportFlags& f) {
  cmd.add_option("--harness", f.harness,
                 "Write a task folder for an evaluation harness instead (-o OUT): lm-eval, "
                 "inspect, lmms-eval or vlmevalkit (python -m rave export-harness; "
                 "docs/harnesses.md); DIR may be a `rave probes` folder (docs/probes.md)")
      ->check(CLI::IsMember({"lm-eval", "inspect", "lmms-eval", "vlmevalkit"}));
  cmd.add_option("--task-name", f.task_name,
                 "--harness: the tasks' prefix (lm-eval, lmms-eval; VLMEvalKit's dataset names)")
      ->capture_default_str();
  cmd.add_option("--split", f.split, "--harness: only the problems of this split")
      ->check(CLI::IsMember({"train", "val", "test"}));
  cmd.add_option("--samples", f.samples,
                 "--harness lm-eval: samples per chat query, voted (IBM's nreturn)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
}

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

}  // namespace

std::string rows_text(int rows_shown) {
  return rows_shown == 0 ? "all" : std::to_string(rows_shown);
}

ExportFlags::ExportFlags()
    : format(evaluation::format_name(options.format)),
      style(evaluation::style_name(options.text.style)),
      rows(rows_text(options.text.rows_shown)),
      classmode(evaluation::classmode_name(options.text.classmode)),
      uncertainty_seed(std::to_string(options.uncertainty_seed)) {}

void bind_export_flags(CLI::App& cmd, ExportFlags& f) {
  cmd.add_option("data", f.data,
                 "Folder of problems (.xml with the .npz beside it, or .asig), one file, or an "
                 "IBM I-RAVEN-X .json")
      ->required();
  cmd.add_option("--format,-f", f.format, "text | text-disentangled | json | hf")
      ->capture_default_str();
  cmd.add_option("-o,--output", f.output, "Output file (JSON Lines; default standard output)");
  bind_prompt_flags(cmd, f);
  bind_answer_flags(cmd, f);
  bind_harness_flags(cmd, f);
  cmd.add_option("-j,--jobs", f.threads, "Worker threads")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
}

evaluation::ExportOptions export_options(const ExportFlags& f) {
  evaluation::ExportOptions o = f.options;
  const auto format = evaluation::parse_format(f.format);
  if (!format)
    throw UsageError("--format must be text, text-disentangled, json or hf, not '" + f.format +
                     "'");
  const auto style = evaluation::parse_style(f.style);
  if (!style)
    throw UsageError("--style must be ibm-2025, ibm-2024 or lm-raven, not '" + f.style + "'");
  const auto classmode = evaluation::parse_classmode(f.classmode);
  if (!classmode) throw UsageError("--classmode must be disc or pred, not '" + f.classmode + "'");
  if (f.shuffle_seed && o.answer_first)
    throw UsageError("--answers-shuffled and --answer-first each set the order; give one");
  o.format = *format;
  o.text.style = *style;
  o.text.rows_shown = parse_rows(f.rows);
  o.text.classmode = *classmode;
  evaluation::check_text_options(o.text);
  if (o.text.uncertainty && *format != evaluation::ExportFormat::kText)
    throw UsageError("--uncertainty is for --format text only (as in IBM's code)");
  o.shuffle_seed = seed_of(f.shuffle_seed, "--answers-shuffled");
  o.uncertainty_seed = parse_whole_number(f.uncertainty_seed, "--uncertainty-seed", 0, UINT64_MAX);
  return o;
}

ProbeFlags::ProbeFlags() : seed(std::to_string(options.seed)) {}

void bind_probe_flags(CLI::App& cmd, ProbeFlags& f) {
  evaluation::ProbeOptions& o = f.options;
  cmd.add_option("problems", f.input,
                 "A folder of problems (.xml with the .npz beside it, or .asig) or one file")
      ->required();
  cmd.add_option("-o,--output", f.output,
                 "The probe folder (replaced whole if it holds probes.jsonl)");
  cmd.add_flag("--panels", o.panels, "Also each panel as its own PNG, and the panels prompts");
  cmd.add_option("--per-type", o.per_type, "Questions of each type per problem")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  cmd.add_option("--types", f.types,
                 "Comma-separated probe types (default: all): count, empty_position, shape, "
                 "color, same, row_change, one_difference");
  cmd.add_option("--seed", f.seed, "The draw among a problem's questions")->capture_default_str();
  cmd.add_option("-j,--jobs", f.threads, "Worker threads (the output is the same)")
      ->capture_default_str()
      ->check(jobs_range());
}

evaluation::ProbeOptions probe_options(const ProbeFlags& f) {
  evaluation::ProbeOptions o = f.options;
  o.seed = parse_whole_number(f.seed, "--seed", 0, UINT64_MAX);
  o.types = type_list(f.types);
  return o;
}

void bind_show_flags(CLI::App& cmd, ShowFlags& f) {
  cmd.add_option("problem", f.input,
                 "Problem .npz (images as stored), or .xml or .asig (rendered); with --vlm a "
                 "folder of problems (.xml with the .npz beside it, or .asig) or one file")
      ->required();
  cmd.add_option("-o,--output", f.output, "Output .png");
  cmd.add_flag("--no-answer", f.no_answer, "Draw the sheet answer-free (no frame)");
  cmd.add_option("--vlm", f.vlm,
                 "Write an image benchmark into this folder (replaced whole if it holds one)");
  cmd.add_flag("--panels", f.options.panels,
               "--vlm: also each context and candidate panel as its own PNG");
  cmd.add_flag("--with-answer", f.options.with_answer,
               "--vlm: name the answer in vlm.jsonl (never drawn)");
  cmd.add_option("--answers-shuffled", f.shuffle_seed,
                 "--vlm: show the candidates in a per-problem order drawn from this seed (as "
                 "rave export's); rave score maps the answers back");
  cmd.add_option("--style", f.style,
                 "Draw the symbols (.xml, .asig; with --vlm every problem) in this render style "
                 "instead of their own. " +
                     style_help());
  cmd.add_option("-j,--jobs", f.threads, "--vlm: worker threads (the output is the same)")
      ->capture_default_str()
      ->check(jobs_range());
}

evaluation::VlmOptions vlm_options(const ShowFlags& f) {
  evaluation::VlmOptions o = f.options;
  if (f.style) o.style = engine::parse_style(*f.style);
  o.shuffle_seed = seed_of(f.shuffle_seed, "--answers-shuffled");
  return o;
}

}  // namespace rave::cli
