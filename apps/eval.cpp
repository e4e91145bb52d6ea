// `rave eval`: test accuracy of trained checkpoints per configuration, in the paper's column order,
// beside the solver's accuracy on the same files (the ceiling); Markdown table, CSV and a PNG chart.
#include <cstdio>
#include <memory>

#include "apps/cli_util.hpp"
#include "apps/commands.hpp"
#include "apps/neural_report.hpp"
#include "apps/neural_words.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "neural/dataset.hpp"
#include "neural/trainer.hpp"

namespace rave::apps {
namespace {

struct EvalArgs {
  std::vector<std::string> checkpoints;
  std::string data, split = "test", model, device = "auto", chart, csv, title;
  std::vector<std::string> configs;
  int batch_size = 32, threads = default_threads();
  bool candidates_only = false, no_solver = false;
};

engine::Split parse_split(const std::string& word) {
  for (auto s : {engine::Split::kTrain, engine::Split::kVal, engine::Split::kTest})
    if (engine::split_name(s) == word) return s;
  throw UsageError("unknown split '" + word + "'; known: train, val, test");
}

neural::EvalOptions to_options(const EvalArgs& a, const std::string& checkpoint) {
  neural::EvalOptions o;
  o.checkpoint = checkpoint;
  o.data = a.data;
  o.split = parse_split(a.split);
  o.configs = parse_config_list(a.configs);
  o.batch_size = a.batch_size;
  o.threads = a.threads;
  o.device = device_from_word(a.device);
  if (a.candidates_only) o.candidates_only = true;
  if (!a.model.empty()) o.expect_model = model_from_word(a.model);
  return o;
}

// "CNN+DRT", "CNN+DRT (candidates only)"; the note names the run folder.
AccuracyRow row_of(const neural::EvalResult& r, const std::string& checkpoint, bool candidates_only) {
  std::string label = neural::display_name(r.info.model);
  if (candidates_only) label += " (candidates only)";
  const std::filesystem::path path(checkpoint);
  return accuracy_row(label, r.accuracy, path.parent_path().filename().string());
}

int run_eval(const EvalArgs& args) {
  std::vector<AccuracyRow> rows;
  std::size_t problems = 0;
  for (const auto& checkpoint : args.checkpoints) {
    const neural::EvalOptions o = to_options(args, checkpoint);
    const neural::EvalResult r = neural::evaluate(o);
    rows.push_back(row_of(r, checkpoint, o.candidates_only.value_or(r.info.candidates_only)));
    problems = r.problems;
    std::fprintf(stderr, "%s: %s of epoch %d (val %.2f%%), %zu problems, cross-entropy %.4f\n", checkpoint.c_str(),
                 rows.back().label.c_str(), r.info.epoch, 100 * r.info.best_val_accuracy, r.problems, r.loss);
  }
  if (!args.no_solver) {
    const auto files = neural::list_split(args.data, parse_split(args.split), parse_config_list(args.configs));
    std::size_t skipped = 0;
    if (auto ceiling = solver_ceiling(files, &skipped)) rows.push_back(*ceiling);
    if (skipped) std::fprintf(stderr, "solver ceiling: %zu problems without their .xml were left out\n", skipped);
  }
  std::printf("%s accuracy (%%) on %s, %zu problems:\n%s", args.split.c_str(), args.data.c_str(), problems,
              accuracy_table(rows).c_str());
  if (!args.csv.empty()) write_file_atomic(args.csv, std::string_view(accuracy_csv(rows)));
  if (!args.chart.empty()) {
    const std::string png = accuracy_png(args.title.empty() ? args.split + " accuracy" : args.title, rows);
    write_file_atomic(args.chart, std::string_view(png));
  }
  return 0;
}

}  // namespace

Runner add_eval(CLI::App& app) {
  auto a = std::make_shared<EvalArgs>();
  auto* cmd = app.add_subcommand(
      "eval",
      "Evaluate trained checkpoints (rave train's best.pt) on a split of a dataset: accuracy per\n"
      "configuration in the paper's column order, with the solver's accuracy on the same files as the\n"
      "ceiling. Several checkpoints give one row each.");
  cmd->add_option("checkpoints", a->checkpoints, "Checkpoint files (best.pt)")->required();
  cmd->add_option("--data,-d", a->data, "Dataset folder")->required();
  cmd->add_option("--split", a->split, "train | val | test")->capture_default_str();
  cmd->add_option("--configs,--test-configs", a->configs, "Configurations to evaluate (default all)")->delimiter(',');
  cmd->add_option("--model,-m", a->model, "Fail unless every checkpoint holds this model (cnn, resnet, lstm, wren)");
  cmd->add_flag("--candidates-only", a->candidates_only, "Zero the context panels (default: as the checkpoint was trained)");
  cmd->add_option("--batch-size,-b", a->batch_size, "Problems per batch")->capture_default_str();
  cmd->add_option("-j,--threads", a->threads, "Torch and BLAS threads")->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--device", a->device, "auto | cpu | cuda")->capture_default_str();
  cmd->add_option("--chart", a->chart, "Write a PNG bar chart of accuracy per configuration");
  cmd->add_option("--title", a->title, "Title of the chart");
  cmd->add_option("--csv", a->csv, "Write the table as CSV");
  cmd->add_flag("--no-solver", a->no_solver, "Leave out the solver's ceiling row");
  return [a] { return run_eval(*a); };
}

}  // namespace rave::apps
