// `rave check`: audit a dataset folder problem by problem (solver/dataset_check.hpp): the answer is
// explained and ranked first under abduction, no distractor satisfies the problem's own rules, no
// two candidates are identical; plus the rule-free ambiguous share and the context-blind shortcut's
// accuracy. Prints each failing problem, a summary table per configuration, and exits with 3 when
// some problem failed (an unreadable file counts as failed).
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "apps/cli_util.hpp"
#include "apps/commands.hpp"
#include "apps/progress.hpp"
#include "common/error.hpp"
#include "solver/dataset_check.hpp"
#include "engine/formats/problem_files.hpp"

namespace rave::apps {
namespace {

struct CheckArgs {
  std::vector<std::string> paths;
  std::string backend = "heuristic";
  bool strict = false;
  int threads = default_threads();
};

// Counts of one column (a configuration, or all).
struct Column {
  int problems = 0, unique = 0, ambiguous = 0, unexplained = 0, misranked = 0, valid_distractor = 0, duplicates = 0,
      failed = 0, with_target = 0, blind_hits = 0;
};

void count(Column& col, const solver::ProblemCheck& c, bool strict) {
  ++col.problems;
  col.unique += c.verdict == solver::Verdict::kUnique;
  col.ambiguous += c.verdict == solver::Verdict::kAmbiguous;
  col.unexplained += c.target_known && !c.target_explained;
  col.misranked += c.target_known && c.target_explained && !c.answered;
  col.valid_distractor += !c.valid_distractors.empty();
  col.duplicates += !c.duplicates.empty();
  col.failed += c.failed(strict);
  col.with_target += c.target_known;
  col.blind_hits += c.blind_hit;
}

void print_row(const char* name, const Column& total, const std::array<Column, 7>& cols, int Column::*field) {
  std::printf("%-22s %8d", name, total.*field);
  for (const Column& c : cols) std::printf(" %8d", c.*field);
  std::printf("\n");
}

void print_table(const Column& total, const std::array<Column, 7>& cols, int errors) {
  std::printf("%-22s %8s", "", "all");
  for (const auto& config : engine::all_configurations()) std::printf(" %8s", std::string(config.paper_name).c_str());
  std::printf("\n");
  print_row("problems", total, cols, &Column::problems);
  print_row("unique (no rules)", total, cols, &Column::unique);
  print_row("ambiguous (no rules)", total, cols, &Column::ambiguous);
  print_row("answer unexplained", total, cols, &Column::unexplained);
  print_row("answer not ranked 1st", total, cols, &Column::misranked);
  print_row("distractor fits rules", total, cols, &Column::valid_distractor);
  print_row("duplicate candidates", total, cols, &Column::duplicates);
  print_row("failed", total, cols, &Column::failed);
  std::printf("%-22s", "context-blind acc %");
  auto blind = [](const Column& c) {
    if (c.with_target == 0)
      std::printf(" %8s", "-");
    else
      std::printf(" %8.2f", 100.0 * c.blind_hits / c.with_target);
  };
  blind(total);
  for (const Column& c : cols) blind(c);
  std::printf("\n");
  print_row("with target", total, cols, &Column::with_target);  // what the accuracy and answer rows count
  std::printf("unreadable files: %d\n", errors);
}

int run_check(const CheckArgs& args) {
  const auto backend = solver::parse_backend(args.backend);
  if (!backend) throw UsageError("--backend must be heuristic or z3, not '" + args.backend + "'");
  const auto files = engine::collect_problem_files({args.paths.begin(), args.paths.end()});
  if (files.empty()) throw UsageError("no .xml or .asig problem files under the given paths");
  Column total;
  std::array<Column, 7> cols{};
  int errors = 0;
  ProgressLine progress("check", files.size());
  std::uint64_t done = 0;
  solver::check_files(files, *backend, {}, args.threads, [&](const solver::FileCheck& r) {
    progress.update(++done);
    if (!r.ok()) {
      ++errors;
      std::fflush(stdout);
      std::fprintf(stderr, "rave: error: %s\n", r.error.c_str());
      return;
    }
    count(total, r.check, args.strict);
    count(cols[engine::config_index(r.config)], r.check, args.strict);
    if (r.check.failed(args.strict)) std::printf("%s: %s\n", shown(r.file).c_str(), r.check.failures(args.strict).c_str());
  });
  progress.finish();
  print_table(total, cols, errors);
  return total.failed > 0 || errors > 0 ? 3 : 0;
}

}  // namespace

Runner add_check(CLI::App& app) {
  auto args = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand(
      "check",
      "Audit a dataset: every answer explained and ranked first by rule abduction, no distractor that\n"
      "satisfies the problem's own rules, no duplicate candidates; reports the rule-free ambiguous share\n"
      "and the context-blind shortcut's accuracy. Exit code 3 when a problem fails.");
  cmd->add_option("paths", args->paths, "Dataset folders or problem files")->required();
  cmd->add_option("--backend,-b", args->backend, "heuristic or z3")->capture_default_str();
  cmd->add_flag("--strict", args->strict, "Also fail problems that are ambiguous without the rules");
  cmd->add_option("-j,--jobs", args->threads, "Worker threads")->capture_default_str()->check(jobs_range());
  return [args] { return run_check(*args); };
}

}  // namespace rave::apps
