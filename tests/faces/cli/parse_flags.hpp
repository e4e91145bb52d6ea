// The option tests' one parser: `words` (what follows the subcommand) through the flags `bind`
// declares, as `rave <command> words...` would parse them.
//
//   ExportFlags flags;
//   parse_flags(flags, bind_export_flags, {"data", "--style", "lm-raven"});
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace rave::cli {

template <typename Flags>
void parse_flags(Flags& flags, void (*bind)(CLI::App&, Flags&), std::vector<std::string> words) {
  CLI::App app;
  bind(*app.add_subcommand("command"), flags);
  words.insert(words.begin(), "command");
  std::vector<const char*> argv{"rave"};
  for (const auto& w : words) argv.push_back(w.c_str());
  app.parse(static_cast<int>(argv.size()), argv.data());
}

}  // namespace rave::cli
