#pragma once
// `rave solve`'s and `rave check`'s flags bound onto jobs::BatchOptions and jobs::CheckOptions,
// the one home of their defaults: a flag of the field's type binds to the field itself, the
// backend to a word that starts as the options' default and is converted once, in
// solve_options / check_options. `--help` shows the options' defaults. What is the face's own:
// the paths, what is printed, -j (the machine's threads; the library's is 1) and check's
// --shortcuts flags, which the Python package's learner audit reads (rave.shortcuts).
//
//   SolveFlags flags;
//   bind_solve_flags(*app.add_subcommand("solve"), flags);
//   ... app.parse(argc, argv) ...
//   jobs::BatchOptions options = solve_options(flags);  // UsageError naming a bad backend
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "jobs/batch.hpp"
#include "jobs/problem_check.hpp"

namespace rave::cli {

/// BatchOptions, the backend's word, and what solve prints.
struct SolveFlags {
  SolveFlags();
  jobs::BatchOptions options;
  std::vector<std::string> paths;
  std::string backend;
  bool explain = false, json = false, show_parse = false;
};

/// Adds solve's flags to `cmd`, bound onto `flags` (which must outlive the parse).
void bind_solve_flags(CLI::App& cmd, SolveFlags& flags);
/// The options the flags give (UsageError naming a bad backend).
jobs::BatchOptions solve_options(const SolveFlags& flags);

/// CheckOptions, the backend's word, and check's own flags.
struct CheckFlags {
  CheckFlags();
  jobs::CheckOptions options;
  std::vector<std::string> paths;
  std::string backend;
  bool strict = false, allow_extra = false, no_manifest = false, no_replay = false;
  bool shortcuts = false;  ///< the learner audit (python -m rave shortcuts)
  int folds = 5;
  std::string learners = "logit,gbm";
  std::vector<std::string> train;
};

/// Adds check's flags to `cmd`, bound onto `flags`.
void bind_check_flags(CLI::App& cmd, CheckFlags& flags);
/// The options the flags give (UsageError naming a bad backend), with the content checks.
jobs::CheckOptions check_options(const CheckFlags& flags);

}  // namespace rave::cli
