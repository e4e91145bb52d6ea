#pragma once
// `rave generate`'s flags bound onto jobs::DatasetSpec, the one home of their defaults: a flag of
// the field's type binds to the field itself, a flag whose word differs from the field's type
// (seed, answers, configurations, the variant's words, shard, style) to a string that starts as
// the spec's default and is converted once, in dataset_spec. `--help` shows the spec's defaults.
// The one default that is the face's own: -j, the machine's threads (the library's is 1).
//
//   DatasetFlags flags;
//   CLI::App* cmd = app.add_subcommand("generate");
//   bind_dataset_flags(*cmd, flags);
//   bind_variant_flags(*cmd, flags);
//   ... app.parse(argc, argv) ...
//   jobs::DatasetSpec spec = dataset_spec(flags);  // UsageError naming the flag of a bad word
#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "jobs/dataset.hpp"

namespace rave::cli {

/// A DatasetSpec and the word forms of its fields, each word starting from the spec's default.
struct DatasetFlags {
  DatasetFlags();
  jobs::DatasetSpec spec;
  std::string num_samples;
  std::string seed;
  std::vector<std::string> configs;
  std::string answers;
  std::optional<int> values;  ///< left out: the spec's value tables
  std::string regime;
  std::string hold_out;
  std::string shard;
  std::string style;
};

/// Adds generate's dataset flags to `cmd`, bound onto `flags` (which must outlive the parse).
void bind_dataset_flags(CLI::App& cmd, DatasetFlags& flags);
/// Adds the variant's flags (docs/variants.md), shard and style, bound onto `flags`.
void bind_variant_flags(CLI::App& cmd, DatasetFlags& flags);
/// The spec the flags give, its words converted (UsageError naming the flag of a bad word); not
/// yet checked as a whole (jobs::check_dataset_spec) nor its command recorded.
jobs::DatasetSpec dataset_spec(const DatasetFlags& flags);

}  // namespace rave::cli
