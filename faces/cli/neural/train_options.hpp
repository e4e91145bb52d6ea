#pragma once
// `rave train`'s flags bound onto neural::TrainOptions, the one home of their defaults: a flag of
// the field's type binds to the field itself, a flag whose word differs (model, device,
// precision, label table, configurations, batch-norm init) to a string that starts as the
// options' default and is converted once, in train_options. `--help` shows the options' defaults.
// What is the face's own: -j 0 means the machine's threads shared among its ranks, and --nproc /
// --no-cpu-bind, which start the ranks rather than train.
//
//   TrainFlags flags;
//   bind_train_flags(*app.add_subcommand("train"), flags);
//   ... app.parse(argc, argv) ...
//   neural::TrainOptions options = train_options(flags);  // UsageError naming a bad word
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "neural/epoch_loop.hpp"

namespace rave::cli {

/// TrainOptions and the word forms of its fields, each word starting from the options' default.
struct TrainFlags {
  TrainFlags();
  neural::TrainOptions options;
  std::string model;  ///< required: no default
  std::string device;
  std::string precision;
  std::string label_embeddings;
  std::string batch_norm_init;
  std::vector<std::string> train_configs, test_configs;
  int nproc = 1;             ///< ranks to start on this machine (the launcher's, not training's)
  bool no_cpu_bind = false;  ///< leave those ranks to the scheduler
};

/// Adds train's flags to `cmd`, bound onto `flags` (which must outlive the parse).
void bind_train_flags(CLI::App& cmd, TrainFlags& flags);
/// The options the flags give, their words converted (UsageError naming a bad word), the data's
/// identity and the distributed environment read, -j 0 resolved to this rank's share.
neural::TrainOptions train_options(const TrainFlags& flags);

}  // namespace rave::cli
