#pragma once
// The one place that parses a command line, runs the chosen subcommand, catches errors and picks
// the exit code, shared by `rave` and `rave-train` (0 ok, 1 bad input or a runtime error, 2 usage,
// 3 a check that found problems). Errors print as one line: `<program>: error: <what>`.
//
//   int main(int argc, char** argv) { return rave::cli::cli_main(argc, argv, kProgram,
//   subcommands()); }
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

namespace rave::cli {

/// What a subcommand does once its flags are parsed; returns the exit code.
using Runner = std::function<int()>;
/// Adds one subcommand to the app.
using Adder = Runner (*)(CLI::App&);

/// How an executable introduces itself.
struct Program {
  std::string name;         ///< "rave"
  std::string description;  ///< the first lines of --help
};

/// Parses argv against `adders`' subcommands and runs the one given; returns the exit code.
int cli_main(int argc, char** argv, const Program& program, const std::vector<Adder>& adders);

}  // namespace rave::cli
