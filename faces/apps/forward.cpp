// `rave train` and `rave eval`: the neural commands live in rave-train (the only executable that
// loads LibTorch, ~0.45 s and 167 MB before main). These subcommands take every argument after
// their name unparsed and replace this process with `rave-train <name> <arguments>`, found beside
// the running executable, so exit codes, output and signals are rave-train's own.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "common/error.hpp"

namespace rave::apps {
namespace {

namespace fs = std::filesystem;

// rave-train beside /proc/self/exe (the build tree and an install both keep them together).
fs::path neural_executable() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  fs::path candidate = (ec ? fs::path("rave") : self).parent_path() / "rave-train";
  if (!fs::is_regular_file(candidate, ec))
    throw Error(
        "the neural commands need rave-train beside rave (" + candidate.string() +
        "), which this build does not have: build it with scripts/setup.sh --full, or with torch "
        "installed, pip install --no-build-isolation -C cmake.define.RAVE_BUILD_NEURAL=ON .");
  return candidate;
}

// glibc's allocator for training, set in rave-train's environment so that it holds from the
// process's first allocation: a top pad of 256 MB (MALLOC_TOP_PAD_) made CNN+DRT training on the
// CPU 1.3x faster in alternating runs on the 2-core VM (bench/README.md, "Data-parallel training"),
// where every page of fresh memory is a costly fault; mallopt() from inside rave-train, after
// LibTorch's static initialisers have allocated, measured no gain. A value the user set is kept.
void tune_allocator_for_training() { ::setenv("MALLOC_TOP_PAD_", "268435456", /*overwrite=*/0); }

[[noreturn]] void exec_neural(const std::string& command, const std::vector<std::string>& args) {
  const fs::path program = neural_executable();
  tune_allocator_for_training();
  std::vector<std::string> words{"rave", command};  // argv[0] "rave": rave-train speaks as rave
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  ::execv(program.c_str(), argv.data());
  throw Error(program.string() + ": cannot run: " + std::strerror(errno));
}

Runner add_forward(CLI::App& app, const std::string& name, const std::string& description) {
  auto* cmd = app.add_subcommand(name, description + "\n(runs rave-train " + name + "; `rave " +
                                           name + " --help` lists its flags)");
  cmd->prefix_command();
  cmd->set_help_flag();  // --help goes to rave-train, which knows the flags
  return [cmd, name]() -> int { exec_neural(name, cmd->remaining()); };
}

}  // namespace

Runner add_train_forward(CLI::App& app) {
  return add_forward(
      app, "train",
      "Train a baseline of the RAVEN paper (CNN, ResNet-18, LSTM, WReN, each with or without the "
      "Dynamic Residual Tree) on a dataset folder");
}

Runner add_eval_forward(CLI::App& app) {
  return add_forward(app, "eval",
                     "Evaluate trained checkpoints per configuration beside the solver's ceiling");
}

}  // namespace rave::apps
