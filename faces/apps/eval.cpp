// `rave eval`: test accuracy of trained checkpoints per configuration, in the paper's column order,
// through the evaluation harness (evaluation/scoring/report.hpp): beside the solver's ceiling and the
// context-blind shortcut on the same problems when the set's .xml files are there; each
// checkpoint's answers can be written as a predictions file for `rave score`.
#include <cstdio>
#include <memory>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "cli/neural/neural_report.hpp"
#include "cli/neural/neural_words.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/formats/problem_files.hpp"
#include "evaluation/scoring/report_chart.hpp"
#include "neural/dataset.hpp"
#include "neural/epoch_loop.hpp"

namespace rave::apps {
namespace {

// One checkpoint's options are neural::EvalOptions (its defaults bound by the flags, the words
// converted in to_options); the report's outputs are this command's own.
struct EvalFlags {
  EvalFlags() { options.threads = cli::default_threads(); }
  neural::EvalOptions options;
  std::vector<std::string> checkpoints, configs;
  std::string data, split{engine::split_name(options.split)},
      device{cli::device_word(options.device)},
      precision{neural::precision_name(options.precision)}, model;
  bool candidates_only = false, with_context = false;
  std::string chart, csv, title, predictions;
  bool no_solver = false, seeds = false;
};

engine::Split parse_split(const std::string& word) {
  for (auto s : {engine::Split::kTrain, engine::Split::kVal, engine::Split::kTest})
    if (engine::split_name(s) == word) return s;
  throw UsageError("unknown split '" + word + "'; known: train, val, test");
}

neural::EvalOptions to_options(const EvalFlags& a, const std::string& checkpoint) {
  neural::EvalOptions o = a.options;
  o.checkpoint = checkpoint;
  o.data = a.data;
  o.split = parse_split(a.split);
  o.configs = cli::parse_config_list(a.configs);
  o.device = cli::device_from_word(a.device);
  o.precision = cli::precision_from_word(a.precision);
  if (a.candidates_only && a.with_context)
    throw UsageError("--candidates-only and --no-candidates-only contradict each other");
  if (a.candidates_only) o.candidates_only = true;
  if (a.with_context) o.candidates_only = false;
  if (!a.model.empty()) o.expect_model = cli::model_from_word(a.model);
  return o;
}

// "CNN+DRT", "CNN+DRT (candidates only)".
std::string label_of(const neural::EvalResult& r, bool candidates_only) {
  return neural::display_name(r.info.model) + (candidates_only ? " (candidates only)" : "");
}

// Where a checkpoint's predictions go: `out` itself for one checkpoint, else <out>/<run
// folder>.jsonl.
std::filesystem::path predictions_path(const EvalFlags& a, const std::string& checkpoint) {
  if (a.checkpoints.size() == 1) return a.predictions;
  std::filesystem::create_directories(a.predictions);
  return std::filesystem::path(a.predictions) /
         (std::filesystem::path(checkpoint).parent_path().filename().string() + ".jsonl");
}

// The report: scored against the set's answer key when its .xml files are there (the solver and
// context-blind rows beside), else from the models' own counts.
evaluation::Report make_report(const EvalFlags& a,
                               const std::vector<evaluation::LabeledFile>& files,
                               const std::vector<neural::EvalResult>& results) {
  std::vector<neural::AccuracyByConfig> counts;
  for (const auto& r : results) counts.push_back(r.accuracy);
  return cli::answers_report(a.data, files, counts, a.options.threads, a.seeds, !a.no_solver);
}

int run_eval(const EvalFlags& args) {
  std::vector<evaluation::LabeledFile> files;
  std::vector<neural::EvalResult> results;
  for (const auto& checkpoint : args.checkpoints) {
    const neural::EvalOptions o = to_options(args, checkpoint);
    results.push_back(neural::evaluate(o));
    const neural::EvalResult& r = results.back();
    const std::string label = label_of(r, o.candidates_only.value_or(r.info.candidates_only));
    files.push_back({label, cli::prediction_file(args.data, r.predictions, label)});
    files.back().file.file = checkpoint;
    if (!args.predictions.empty())
      write_file_atomic(predictions_path(args, checkpoint),
                        cli::predictions_jsonl(files.back().file, label));
    std::fprintf(stderr, "%s: %s of epoch %d (val %.2f%%), %zu problems, cross-entropy %.4f\n",
                 checkpoint.c_str(), label.c_str(), r.info.epoch, 100 * r.info.best_val_accuracy,
                 r.problems, r.loss);
  }
  const evaluation::Report report = make_report(args, files, results);
  std::printf("%s accuracy (%%) on %s:\n%s", args.split.c_str(), args.data.c_str(),
              evaluation::report_table(report).c_str());
  if (!args.csv.empty()) write_file_atomic(args.csv, evaluation::report_csv(report));
  if (!args.chart.empty())
    write_file_atomic(args.chart,
                      evaluation::report_chart_png(
                          report, args.title.empty() ? args.split + " accuracy" : args.title));
  return 0;
}

}  // namespace

Runner add_eval(CLI::App& app) {
  auto a = std::make_shared<EvalFlags>();
  auto* cmd = app.add_subcommand(
      "eval",
      "Evaluate trained checkpoints (rave train's best.pt) on a split of a dataset: accuracy per\n"
      "configuration in the paper's column order, with the solver's accuracy on the same files as "
      "the\n"
      "ceiling and the context-blind shortcut. Several checkpoints give one row each (with "
      "--seeds, one\n"
      "per model). --predictions writes the answers for rave score.");
  cmd->add_option("checkpoints", a->checkpoints, "Checkpoint files (best.pt)")->required();
  cmd->add_option("--data,-d", a->data, "Dataset folder")->required();
  cmd->add_option("--split", a->split, "train | val | test")->capture_default_str();
  cmd->add_option("--configs,--test-configs", a->configs,
                  "Configurations to evaluate (default all)")
      ->delimiter(',');
  cmd->add_option(
      "--model,-m", a->model,
      "Fail unless every checkpoint holds this model (cnn, resnet, lstm, wren, predrnet, scl)");
  cmd->add_flag("--candidates-only", a->candidates_only,
                "Zero the context panels (default: as the checkpoint was trained)");
  cmd->add_flag("--no-candidates-only", a->with_context,
                "Show the context panels even to a checkpoint trained with --candidates-only");
  cmd->add_option("--batch-size,-b", a->options.batch_size, "Problems per batch")
      ->capture_default_str();
  cmd->add_option("-j,--threads", a->options.threads, "Torch and BLAS threads")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  cmd->add_option("--device", a->device, "auto | cpu | cuda | cuda:K")->capture_default_str();
  cmd->add_option("--precision", a->precision, "fp32 | bf16 (autocast)")->capture_default_str();
  cmd->add_option("--chart", a->chart, "Write a PNG bar chart of accuracy per configuration");
  cmd->add_option("--title", a->title, "Title of the chart");
  cmd->add_option("--csv", a->csv, "Write the table as CSV");
  cmd->add_flag("--no-solver", a->no_solver, "Leave out the solver and context-blind rows");
  cmd->add_option(
      "--predictions", a->predictions,
      "Write each checkpoint's answers and logits for rave score: this file for one checkpoint, "
      "<this folder>/<run folder>.jsonl for several");
  cmd->add_flag(
      "--seeds", a->seeds,
      "Checkpoints of the same model are seeds: one row each model, mean ± 95% t interval");
  return [a] { return run_eval(*a); };
}

}  // namespace rave::apps
