#include "cli/solve_options.hpp"

#include "cli/cli_util.hpp"
#include "common/error.hpp"
#include "solver/solver.hpp"

namespace rave::cli {
namespace {

solver::Backend backend_of(const std::string& word) {
  const auto backend = solver::parse_backend(word);
  if (!backend) throw UsageError("--backend must be heuristic or z3, not '" + word + "'");
  return *backend;
}

// What solve prints besides the answers.
void bind_solve_output(CLI::App& cmd, SolveFlags& f) {
  cmd.add_flag("--explain", f.explain, "Print the rules found for every answer");
  cmd.add_flag("--json", f.json,
               "One JSON object per problem and line on stdout (summary on stderr)");
  cmd.add_flag("--from-pixels", f.options.from_pixels,
               "Solve from the npz image alone, ignoring any XML beside it");
  cmd.add_flag("--show-parse", f.show_parse,
               "Print what perception read in each panel (problems solved from pixels)");
}

// The learner audit's flags, handed to python -m rave shortcuts.
void bind_shortcut_flags(CLI::App& cmd, CheckFlags& f) {
  cmd.add_flag("--shortcuts", f.shortcuts,
               "Also the learner audit: per configuration, learners that see the candidates "
               "alone, or with the context as a bag of values, cross-validated by problem, their "
               "accuracy beside chance and the solver (Python with scikit-learn; "
               "docs/answer-sets.md#the-learner-audit)");
  cmd.add_option("--folds", f.folds, "Cross-validation folds of --shortcuts")
      ->capture_default_str()
      ->check(CLI::Range(2, 100));
  cmd.add_option("--shortcut-learners", f.learners,
                 "The learners of --shortcuts: logit (a conditional logit), gbm (gradient "
                 "boosting) or both, comma-separated")
      ->capture_default_str()
      ->needs("--shortcuts");
  cmd.add_option("--shortcuts-train", f.train,
                 "--shortcuts learns from these folders instead and scores every checked problem "
                 "(a few problems of another generator, read with models learnt on many)")
      ->needs("--shortcuts");
}

}  // namespace

SolveFlags::SolveFlags() : backend(solver::backend_name(options.backend)) {
  options.threads = default_threads();
}

void bind_solve_flags(CLI::App& cmd, SolveFlags& f) {
  jobs::BatchOptions& o = f.options;
  cmd.add_option("paths", f.paths,
                 "Problem files or folders (walked recursively), or IBM .json files")
      ->required();
  cmd.add_option("--backend,-b", f.backend,
                 "heuristic (posterior ranking) or z3 (proves the consistent set)")
      ->capture_default_str();
  cmd.add_flag("--use-rules", o.solve.use_rules,
               "Only the rule names stored in the file (the paper's setting); parameters are "
               "still inferred");
  cmd.add_flag_callback(
      "--no-occam", [&o] { o.solve.occam = false; },
      "Keep noise readings that a structured rule explains (ablation)");
  bind_solve_output(cmd, f);
  cmd.add_option("--rlimit", o.budget.rlimit,
                 "Z3 resource limit per check (0: none); exhausted -> verdict unknown")
      ->capture_default_str();
  cmd.add_option("--timeout-ms", o.budget.timeout_ms, "Z3 time limit per check in ms (0: none)")
      ->capture_default_str();
  cmd.add_option("-j,--jobs", o.threads, "Worker threads (output does not depend on it)")
      ->capture_default_str()
      ->check(jobs_range());
}

jobs::BatchOptions solve_options(const SolveFlags& f) {
  jobs::BatchOptions o = f.options;
  o.backend = backend_of(f.backend);
  return o;
}

CheckFlags::CheckFlags() : backend(solver::backend_name(options.backend)) {
  options.threads = default_threads();
}

void bind_check_flags(CLI::App& cmd, CheckFlags& f) {
  cmd.add_option("paths", f.paths, "Dataset folders or problem files")->required();
  cmd.add_option("--backend,-b", f.backend, "heuristic or z3")->capture_default_str();
  cmd.add_flag("--strict", f.strict, "Also fail problems that are ambiguous without the rules");
  cmd.add_flag("--allow-extra", f.allow_extra,
               "Files and folders that rave.json does not list are reported, not failed (notes "
               "kept beside a dataset)");
  cmd.add_flag("--no-manifest", f.no_manifest,
               "Audit the problems of a folder without rave.json (made by another tool) without "
               "failing it for that");
  cmd.add_flag("--no-replay", f.no_replay,
               "Do not make the problems again from rave.json's parameters (a dataset of another "
               "rave version whose generator changed); said in the output");
  bind_shortcut_flags(cmd, f);
  cmd.add_option("-j,--jobs", f.options.threads, "Worker threads")
      ->capture_default_str()
      ->check(jobs_range());
}

jobs::CheckOptions check_options(const CheckFlags& f) {
  jobs::CheckOptions o = f.options;
  o.backend = backend_of(f.backend);
  o.content = true;
  return o;
}

}  // namespace rave::cli
