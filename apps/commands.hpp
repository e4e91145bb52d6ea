#pragma once
// The subcommands of `rave`: each file apps/<name>.cpp defines one `add_<name>` that adds a CLI11
// subcommand and returns the function that runs it. main.cpp is the only place that catches errors
// and picks exit codes (0 ok, 1 input or runtime error, 2 usage, 3 a check that found problems).
// To add a subcommand: declare it here and list it in subcommands() (apps/commands.cpp).
#include <CLI/CLI.hpp>
#include <functional>
#include <vector>

namespace rave::apps {

/// What a subcommand does once its flags are parsed; returns the exit code.
using Runner = std::function<int()>;
/// Adds one subcommand to the app.
using Adder = Runner (*)(CLI::App&);

/// Every subcommand, in the order `rave --help` lists them.
std::vector<Adder> subcommands();

Runner add_demo(CLI::App& app);      ///< apps/demo.cpp
Runner add_generate(CLI::App& app);  ///< apps/generate.cpp
Runner add_render(CLI::App& app);    ///< apps/render.cpp
Runner add_show(CLI::App& app);      ///< apps/show.cpp
#ifdef RAVE_HAVE_NEURAL
Runner add_train(CLI::App& app);     ///< apps/train.cpp
Runner add_eval(CLI::App& app);      ///< apps/eval.cpp
#endif
Runner add_convert(CLI::App& app);   ///< apps/convert.cpp
Runner add_parse(CLI::App& app);     ///< apps/parse.cpp
#ifdef RAVE_HAVE_SOLVER
Runner add_solve(CLI::App& app);     ///< apps/solve.cpp
Runner add_check(CLI::App& app);     ///< apps/check.cpp
#endif

}  // namespace rave::apps
