#pragma once
// The subcommands: each file apps/<name>.cpp defines one `add_<name>` that adds a CLI11 subcommand
// and returns the function that runs it. cli/cli_main.cpp is the only place that catches errors
// and picks exit codes (0 ok, 1 input or runtime error, 2 usage, 3 a check that found problems).
// `rave` runs the symbolic ones itself and forwards the neural ones to `rave-train`, which alone
// links LibTorch. To add a subcommand: declare it here and list it in apps/commands.cpp.
#include <CLI/CLI.hpp>
#include <functional>
#include <vector>

#include "cli/cli_main.hpp"

namespace rave::apps {

// The commands are written against the command-line framework of cli/ (its run loop, flag checks,
// progress line and forwarding to other programs): each returns the cli::Runner that runs it.
using cli::Adder;
using cli::Runner;

/// The subcommands of `rave`, in the order `rave --help` lists them (train/eval as forwarders).
std::vector<Adder> rave_subcommands();
/// The subcommands of `rave-train`.
std::vector<Adder> neural_subcommands();

Runner add_demo(CLI::App& app);             ///< apps/demo.cpp
Runner add_generate(CLI::App& app);         ///< apps/generate.cpp
Runner add_render(CLI::App& app);           ///< apps/render.cpp
Runner add_show(CLI::App& app);             ///< apps/show.cpp
Runner add_convert(CLI::App& app);          ///< apps/convert.cpp
Runner add_parse(CLI::App& app);            ///< apps/parse.cpp
Runner add_solve(CLI::App& app);            ///< apps/solve.cpp
Runner add_perceive(CLI::App& app);         ///< apps/perceive.cpp
Runner add_check(CLI::App& app);            ///< apps/check.cpp
Runner add_export(CLI::App& app);           ///< apps/export.cpp
Runner add_score(CLI::App& app);            ///< apps/score.cpp
Runner add_probes(CLI::App& app);           ///< apps/probes.cpp
Runner add_harness_answers(CLI::App& app);  ///< apps/harness_answers.cpp (python -m rave)
Runner add_study(CLI::App& app);            ///< apps/study.cpp
Runner add_train_forward(CLI::App& app);    ///< apps/forward.cpp: `rave train` -> rave-train
Runner add_eval_forward(CLI::App& app);     ///< apps/forward.cpp: `rave eval` -> rave-train
Runner add_train(CLI::App& app);            ///< apps/train.cpp (rave-train)
Runner add_eval(CLI::App& app);             ///< apps/eval.cpp (rave-train)

}  // namespace rave::apps
