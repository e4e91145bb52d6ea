#pragma once
// The subcommands of `rave`: each file apps/<name>.cpp adds one CLI11 subcommand and the function
// that runs it. main.cpp wires them up and is the only place that catches errors and picks exit
// codes (0 ok, 1 input or runtime error, 2 usage, 3 a check that found problems).
#include <CLI/CLI.hpp>
#include <functional>

namespace rave::apps {

/// What a subcommand does once its flags are parsed; returns the exit code.
using Runner = std::function<int()>;

Runner add_generate(CLI::App& app);
Runner add_render(CLI::App& app);
Runner add_show(CLI::App& app);
Runner add_demo(CLI::App& app);

}  // namespace rave::apps
