// `rave harness-answers FILE... -o OUT`: what an evaluation harness wrote for a task folder of `rave
// export --harness` (lm-eval's and lmms-eval's samples, an inspect log, VLMEvalKit's predictions),
// read back as rave's predictions for `rave score`. The Python package does it (rave.harness.answers,
// which reads inspect's logs with inspect_ai): this process is replaced by `python -m rave
// harness-answers ...` with the arguments as given.
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "cli/python_forward.hpp"

namespace rave::apps {

Runner add_harness_answers(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "harness-answers",
      "Read what lm-eval, inspect, lmms-eval or VLMEvalKit wrote for a `rave export --harness`\n"
      "folder and write rave's predictions, for `rave score` (runs python -m rave "
      "harness-answers;\n"
      "`rave harness-answers --help` lists its flags; docs/harnesses.md)");
  cmd->prefix_command();
  cmd->set_help_flag();  // --help goes to the Python command, which knows the flags
  return [cmd]() -> int {
    std::vector<std::string> args{"harness-answers"};
    for (const std::string& word : cmd->remaining()) args.push_back(word);
    cli::exec_python_rave(args);
  };
}

}  // namespace rave::apps
