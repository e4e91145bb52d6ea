// `rave convert`: a problem between its file forms, chosen by extension: RAVEN XML (.xml), the
// text form (.asig, docs/asig.md) and, as output only, a rendered RAVEN npz (.npz).
// `rave convert A.xml B.asig` then `rave convert B.asig C.xml` gives C == A byte for byte.
#include <cstdio>
#include <filesystem>
#include <memory>

#include "apps/commands.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/encode.hpp"
#include "engine/formats/asig_io.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/render/render.hpp"
#include "engine/formats/xml_io.hpp"

namespace rave::apps {
namespace {

struct ConvertArgs {
  std::string input;
  std::string output;
};

std::string extension_of(const std::string& path) { return std::filesystem::path(path).extension().string(); }

std::string encode_any(const engine::Problem& problem, const std::string& path) {
  const std::string ext = extension_of(path);
  if (ext == ".xml") return engine::write_problem_xml(problem);
  if (ext == ".asig") return engine::write_asig(problem);
  if (ext != ".npz") throw UsageError(path + ": expected an output ending in .xml, .asig or .npz");
  if (!problem.target) throw UsageError(path + ": an npz needs the answer index, which the input does not give");
  engine::Problem with_predict = problem;
  if (!with_predict.predict) with_predict.predict = with_predict.target;
  return engine::encode_problem_npz(with_predict, engine::render_problem(with_predict), /*compress=*/false);
}

int run_convert(const ConvertArgs& args) {
  const engine::Problem problem = engine::read_problem(args.input);
  write_file_atomic(args.output, std::string_view(encode_any(problem, args.output)));
  std::printf("converted %s -> %s\n", args.input.c_str(), args.output.c_str());
  return 0;
}

}  // namespace

Runner add_convert(CLI::App& app) {
  auto args = std::make_shared<ConvertArgs>();
  auto* cmd = app.add_subcommand("convert",
                                 "Convert a problem between RAVEN XML (.xml) and the A-SIG text form (.asig, "
                                 "docs/asig.md); .npz output renders it. XML -> .asig -> XML is byte-identical.");
  cmd->add_option("input", args->input, "Problem .xml or .asig")->required()->check(CLI::ExistingFile);
  cmd->add_option("output", args->output, "Output .asig, .xml or .npz (written atomically)")->required();
  return [args] { return run_convert(*args); };
}

}  // namespace rave::apps
