// rave-train: the neural commands (`rave train`, `rave eval`) in their own executable, the only one
// that loads LibTorch. `rave train ...` runs it as `rave train ...` (apps/forward.cpp passes
// argv[0] "rave"), so its help and error lines speak of the command the user typed.
#include <string_view>

#include "apps/commands.hpp"
#include "cli/cli_main.hpp"

int main(int argc, char** argv) {
  const bool via_rave = argc > 0 && std::string_view(argv[0]) == "rave";
  const rave::cli::Program program{
      via_rave ? "rave" : "rave-train",
      "rave-train: the RAVEN paper's neural baselines (LibTorch). `rave train` and `rave eval` run "
      "it.\n"
      "Run `rave train --help` or `rave eval --help` for the flags of one command."};
  return rave::cli::cli_main(argc, argv, program, rave::apps::neural_subcommands());
}
