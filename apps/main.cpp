// rave: Raven's Progressive Matrices in C++. See README.md and `rave --help`.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "apps/commands.hpp"
#include "common/error.hpp"

namespace {

// CLI11 checks required options before it reports arguments it does not know, so `rave generate
// --bogus` would complain about a missing --num-samples; name the unknown argument instead.
std::optional<std::string> unknown_arguments(const CLI::App& app) {
  if (app.get_subcommands().empty() && !app.remaining().empty())
    return "unknown command '" + app.remaining().front() + "'";
  for (const auto* sub : app.get_subcommands()) {
    const auto extra = sub->remaining();
    if (extra.empty()) continue;
    std::string text = "unknown argument";
    for (const auto& word : extra) text += " '" + word + "'";
    return text + " for rave " + sub->get_name();
  }
  return std::nullopt;
}

int run(int argc, char** argv) {
  CLI::App app{"rave: generate, render, solve and learn Raven's Progressive Matrices (RAVEN, CVPR 2019).\n"
               "Run `rave <command> --help` for the flags of one command."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "rave 0.1.0");
  std::vector<std::pair<CLI::App*, rave::apps::Runner>> runners;
  for (auto adder : rave::apps::subcommands()) {
    auto runner = adder(app);
    runners.emplace_back(app.get_subcommands({}).back(), std::move(runner));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "rave: error: %s (see rave --help, or rave <command> --help)\n",
                 unknown_arguments(app).value_or(e.what()).c_str());
    return 2;
  }
  for (auto& [sub, runner] : runners)
    if (sub->parsed()) return runner();
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const rave::UsageError& e) {
    std::fprintf(stderr, "rave: error: %s\n", e.what());
    return 2;
  } catch (const rave::Error& e) {
    std::fprintf(stderr, "rave: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rave: internal error: %s\n", e.what());
    return 1;
  }
}
