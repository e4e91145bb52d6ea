// rave: Raven's Progressive Matrices in C++. See README.md and `rave --help`. The symbolic commands
// run in this process; `rave train` and `rave eval` hand over to rave-train (apps/forward.cpp), so
// this executable never loads LibTorch.
#include "apps/commands.hpp"
#include "cli/cli_main.hpp"

int main(int argc, char** argv) {
  const rave::cli::Program program{
      "rave",
      "rave: generate, render, solve and learn Raven's Progressive Matrices (RAVEN, CVPR 2019).\n"
      "Run `rave <command> --help` for the flags of one command."};
  return rave::cli::cli_main(argc, argv, program, rave::apps::rave_subcommands());
}
