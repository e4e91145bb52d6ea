#include "cli/cli_main.hpp"

#include <CLI/CLI.hpp>

#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "common/error.hpp"
#include "common/parameter_remedies.hpp"
#include "common/text.hpp"
#include "common/version.hpp"

namespace rave::cli {
namespace {

constexpr const char* kOutOfMemory =
    "out of memory (fewer threads with -j, smaller inputs, or more memory)";
const char* g_program = "rave";  // for the terminate handler, which takes no arguments

// An exception no catch handles (one escaping a noexcept function or a thread of a library) ends
// in std::terminate; out of memory there is still the one-line error, never an abort.
[[noreturn]] void on_terminate() {
  if (const std::exception_ptr e = std::current_exception()) try {
      std::rethrow_exception(e);
    } catch (const std::bad_alloc&) {
      std::fprintf(stderr, "%s: error: %s\n", g_program, kOutOfMemory);
      std::_Exit(1);
    } catch (...) {
    }
  std::abort();
}

// CLI11 checks required options before it reports arguments it does not know, so `rave generate
// --bogus` would complain about a missing --num-samples; name the unknown argument instead.
std::optional<std::string> unknown_arguments(const CLI::App& app, const std::string& program) {
  if (app.get_subcommands().empty() && !app.remaining().empty())
    return "unknown command '" + app.remaining().front() + "'";
  for (const auto* sub : app.get_subcommands()) {
    const auto extra = sub->remaining();
    if (extra.empty() || sub->get_prefix_command()) continue;
    std::string text = "unknown argument";
    for (const auto& word : extra) text.append(" '").append(word).append("'");
    return text.append(" for ").append(program).append(" ").append(sub->get_name());
  }
  return std::nullopt;
}

// `rave` alone and `rave help [command]` print help, as `rave --help` and `rave <command> --help`
// do.
std::optional<std::string> help_request(CLI::App& app, int argc, char** argv) {
  if (argc <= 1) return app.help();
  if (std::string_view(argv[1]) != "help" || argc > 3) return std::nullopt;
  if (argc == 2) return app.help();
  for (CLI::App* sub : app.get_subcommands({}))
    if (sub->get_name() == argv[2]) return sub->help();
  return std::nullopt;  // an unknown command: parse() names it
}

// `<command> --print-defaults`: the defaults its --help shows, as one JSON object {"--flag":
// "value"}: what scripts read rather than restate rave's defaults (scripts/neural/campaign.py).
// A forwarder (`rave train` -> rave-train) leaves the flag to the program it forwards to.
void add_print_defaults(CLI::App& sub) {
  if (sub.get_prefix_command()) return;
  sub.add_flag_callback(
      "--print-defaults",
      [&sub] {
        nlohmann::ordered_json out = nlohmann::ordered_json::object();
        for (const CLI::Option* option : sub.get_options())
          if (!option->get_default_str().empty() && !option->get_lnames().empty())
            out["--" + option->get_lnames().front()] = option->get_default_str();
        std::printf("%s\n", out.dump(1).c_str());
        throw CLI::Success();
      },
      "Print the defaults of this command's options as JSON, and exit");
}

int parse_and_run(int argc, char** argv, const Program& program, const std::vector<Adder>& adders) {
  CLI::App app{program.description, program.name};
  app.require_subcommand(1);
  app.set_version_flag("--version", program.name + " " + std::string(version()));
  std::vector<std::pair<CLI::App*, Runner>> runners;
  for (Adder adder : adders) {
    Runner runner = adder(app);
    runners.emplace_back(app.get_subcommands({}).back(), std::move(runner));
    add_print_defaults(*runners.back().first);
  }
  if (const auto help = help_request(app, argc, argv)) {
    std::fputs(help->c_str(), stdout);
    return 0;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "%s: error: %s (see %s --help, or %s <command> --help)\n",
                 program.name.c_str(),
                 printable(unknown_arguments(app, program.name).value_or(e.what())).c_str(),
                 program.name.c_str(), program.name.c_str());
    return 2;
  }
  for (auto& [sub, runner] : runners)
    if (sub->parsed()) return runner();
  return 2;
}

// Problem files are 0.1 to 4 MB and a command reads thousands: glibc would map each buffer afresh
// and hand it back to the kernel when freed, so every file paid its pages' faults again. Buffers
// up to 32 MB now come from the heap and stay there: `rave solve --from-pixels` on 210 files takes
// 1.23x less CPU (bench/README.md, perception section).
void keep_file_buffers() {
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
}

}  // namespace

int cli_main(int argc, char** argv, const Program& program, const std::vector<Adder>& adders) {
  const char* name = program.name.c_str();
  g_program = name;
  keep_file_buffers();
  std::set_terminate(on_terminate);
  try {
    return parse_and_run(argc, argv, program, adders);
  } catch (const ParameterError& e) {  // the parameter as this face spells it: --hold-out
    std::string flag = "--" + e.parameter();
    std::replace(flag.begin(), flag.end(), '_', '-');
    const auto* mended = dynamic_cast<const ParameterErrorWithRemedies*>(&e);
    const std::string rest =
        mended ? mended->bare_rest() + remedies_as(mended->remedies(), "--", "-") : e.rest();
    std::fprintf(stderr, "%s: error: %s\n", name, printable(flag + rest).c_str());
    return 2;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s: error: %s\n", name, printable(e.what()).c_str());
    return 2;
  } catch (const Error& e) {
    std::fprintf(stderr, "%s: error: %s\n", name, printable(e.what()).c_str());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: %s\n", name, kOutOfMemory);
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: internal error: %s\n", name, printable(e.what()).c_str());
    return 1;
  }
}

}  // namespace rave::cli
