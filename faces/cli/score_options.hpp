#pragma once
// `rave score`'s flags bound onto evaluation::ScoreOptions, the one home of their defaults: a flag
// whose word differs from its field's type (protocol, ties, logprob score, text answer, nattr,
// the shuffle seed, the subset) binds to a string that starts as the options' default and is
// converted once, in score_options. `--help` shows the options' defaults. What is the face's own:
// the files, how the report is shown and written, and -j.
//
//   ScoreFlags flags;
//   bind_score_flags(*app.add_subcommand("score"), flags);
//   ... app.parse(argc, argv) ...
//   evaluation::ScoreOptions options = score_options(flags);  // UsageError naming a bad word
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "evaluation/scoring/score.hpp"

namespace rave::cli {

/// ScoreOptions and the word forms of its fields, and the report's own flags.
struct ScoreFlags {
  ScoreFlags();
  evaluation::ScoreOptions options;
  std::vector<std::string> predictions;
  std::string data, subset;
  std::string protocol, ties, logprob_score, text_answer, nattr;
  std::optional<std::string> shuffle_seed;  ///< left out: the options' (none)
  std::string csv, chart, title;
  bool seeds = false, json = false, no_references = false, no_intervals = false, paired = false,
       by_rule = false;
  int threads = 1;
};

/// Adds score's flags to `cmd`, bound onto `flags` (which must outlive the parse).
void bind_score_flags(CLI::App& cmd, ScoreFlags& flags);
/// The options the flags give (UsageError on a value outside a flag's words); a subset file is
/// named, not yet read (evaluation::read_subset).
evaluation::ScoreOptions score_options(const ScoreFlags& flags);

}  // namespace rave::cli
