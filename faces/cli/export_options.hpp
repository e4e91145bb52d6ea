#pragma once
// `rave export`'s, `rave probes`' and `rave show`'s flags bound onto evaluation::ExportOptions,
// ProbeOptions and VlmOptions, the one home of their defaults: a flag of the field's type binds to the
// field itself, a flag whose word differs (format, style, rows shown, classmode, the seeds, probe
// types) to a string that starts as the options' default and is converted once, in
// export_options / probe_options. `--help` shows the options' defaults. What is the face's own:
// the input, -o, -j (the library takes threads as an argument) and --harness's flags, which the
// Python package's task writers read (rave.harness).
//
//   ExportFlags flags;
//   bind_export_flags(*app.add_subcommand("export"), flags);
//   ... app.parse(argc, argv) ...
//   evaluation::ExportOptions options = export_options(flags);  // UsageError naming a bad word
#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "evaluation/export/export.hpp"
#include "evaluation/export/probes.hpp"
#include "evaluation/export/vlm.hpp"

namespace rave::cli {

/// ExportOptions and the word forms of its fields, each word starting from the options' default.
struct ExportFlags {
  ExportFlags();
  evaluation::ExportOptions options;
  std::string data, output;
  std::string format, style, rows, classmode, uncertainty_seed;
  std::optional<std::string> shuffle_seed;         ///< left out: the options' (none)
  std::string harness, task_name = "rave", split;  ///< --harness: rave.harness's task folder
  int samples = 1;                                 ///< --harness lm-eval: IBM's nreturn
  int threads = 1;
};

/// Adds export's flags to `cmd`, bound onto `flags` (which must outlive the parse).
void bind_export_flags(CLI::App& cmd, ExportFlags& flags);
/// The options the flags give, their words converted and checked together (UsageError naming the
/// flag); not for `--format hf` or --harness, which the Python package writes.
evaluation::ExportOptions export_options(const ExportFlags& flags);
/// A number of rows as --rows-shown spells it: "all" for 0.
std::string rows_text(int rows_shown);

/// ProbeOptions and the word forms of its fields.
struct ProbeFlags {
  ProbeFlags();
  evaluation::ProbeOptions options;
  std::string input, output, seed, types;
  int threads = 1;
};

/// Adds probes' flags to `cmd`, bound onto `flags`.
void bind_probe_flags(CLI::App& cmd, ProbeFlags& flags);
/// The options the flags give (UsageError naming a bad word).
evaluation::ProbeOptions probe_options(const ProbeFlags& flags);

/// `rave show`'s flags: one problem's sheet, or with --vlm a set's images onto VlmOptions.
struct ShowFlags {
  evaluation::VlmOptions options;
  std::string input, output, vlm;
  bool no_answer = false;
  std::optional<std::string> shuffle_seed, style;  ///< left out: the options' (none)
  int threads = 1;
};

/// Adds show's flags to `cmd`, bound onto `flags`.
void bind_show_flags(CLI::App& cmd, ShowFlags& flags);
/// The --vlm options the flags give (UsageError naming a bad word).
evaluation::VlmOptions vlm_options(const ShowFlags& flags);

}  // namespace rave::cli
