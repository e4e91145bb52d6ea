// `rave render`: re-render a problem from its XML alone into an npz (what the parity test uses).
#include <memory>

#include "apps/commands.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/render/render.hpp"

namespace rave::apps {
namespace {

struct RenderArgs {
  std::string xml;
  std::string output;
  int target = -1;
  bool compress = false;
};

int run_render(const RenderArgs& args) {
  engine::Problem problem = engine::read_problem(args.xml);
  if (args.target >= 0) problem.target = args.target;
  if (!problem.target)
    throw UsageError(args.xml + ": the answer index is not in the XML and no .npz lies beside it; pass --target");
  if (!problem.predict) problem.predict = problem.target;
  const auto images = engine::render_problem(problem);
  write_file_atomic(args.output, engine::encode_problem_npz(problem, images, args.compress));
  std::printf("rendered %s -> %s (16 panels, target %d)\n", args.xml.c_str(), args.output.c_str(), *problem.target);
  return 0;
}

}  // namespace

Runner add_render(CLI::App& app) {
  auto args = std::make_shared<RenderArgs>();
  auto* cmd = app.add_subcommand("render",
                                 "Re-render a problem from its XML alone into a RAVEN npz (16 panels, target, "
                                 "meta fields). Target and predict come from the npz beside the XML when it exists.");
  cmd->add_option("xml", args->xml, "Problem XML (RAVEN_<k>_<split>.xml)")->required()->check(CLI::ExistingFile);
  cmd->add_option("-o,--output", args->output, "Output .npz")->required();
  cmd->add_option("--target", args->target, "Answer index 0..7 when it cannot be found beside the XML")
      ->check(CLI::Range(0, 7));
  cmd->add_flag("--compress", args->compress, "Deflate the npz (numpy.savez_compressed)");
  return [args] { return run_render(*args); };
}

}  // namespace rave::apps
