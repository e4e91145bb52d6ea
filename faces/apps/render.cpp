// `rave render`: re-render problems from their XML alone into npz files (what the parity test
// uses). One XML to one npz, or many files and folders into an output folder.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "cli/file_jobs.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/render/render.hpp"

namespace rave::apps {
namespace {

struct RenderArgs {
  std::vector<std::string> inputs;
  std::string output;
  int target = -1;
  bool compress = false;
};

void render_one(const RenderArgs& args, const cli::FileJob& job) {
  engine::Problem problem = engine::read_problem(job.input);
  if (args.target >= 0) problem.target = args.target;
  if (!problem.target)
    throw InputError(
        job.input.string(), "",
        "the answer index is not in the XML and no .npz lies beside it; pass --target");
  if (!problem.predict) problem.predict = problem.target;
  const auto images = engine::render_problem(problem);
  write_file_atomic(job.output, engine::encode_problem_npz(problem, images, args.compress));
  std::printf("rendered %s -> %s (16 panels, target %d)\n", cli::shown(job.input).c_str(),
              cli::shown(job.output).c_str(), *problem.target);
}

int run_render(const RenderArgs& args) {
  const auto planned = cli::plan_file_jobs(args.inputs, args.output, ".npz");
  if (planned.empty()) throw UsageError("no problem files (.xml, .asig) in the given folders");
  return cli::run_file_jobs(planned, "rendered",
                            [&](const cli::FileJob& j) { render_one(args, j); });
}

}  // namespace

Runner add_render(CLI::App& app) {
  auto args = std::make_shared<RenderArgs>();
  auto* cmd = app.add_subcommand(
      "render",
      "Re-render problems from their XML alone into RAVEN npz files (16 panels, target, "
      "meta fields). Target and predict come from the npz beside each XML when it exists.\n"
      "  rave render RAVEN_0_train.xml -o new.npz\n"
      "  rave render data/raven -o rendered/     # every XML below, same relative paths");
  cmd->add_option("inputs", args->inputs, "Problem XML (or .asig) files and folders")->required();
  cmd->add_option("-o,--output", args->output,
                  "Output .npz for one input; otherwise a folder (created) that mirrors the inputs")
      ->required();
  cmd->add_option("--target", args->target,
                  "Answer index 0..7 when it cannot be found beside the XML")
      ->check(CLI::Range(0, 7));
  cmd->add_flag("--compress", args->compress, "Deflate the npz (numpy.savez_compressed)");
  return [args] { return run_render(*args); };
}

}  // namespace rave::apps
