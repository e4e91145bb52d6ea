// `rave convert`: problems between their file forms, chosen by extension: RAVEN XML (.xml), the
// text form (.asig, docs/asig.md) and, as output only, a rendered RAVEN npz (.npz).
// `rave convert A.xml B.asig` then `rave convert B.asig C.xml` gives C == A byte for byte;
// `rave convert --to asig FILES-OR-FOLDERS [-o DIR]` converts many at once; `-` is standard input
// (its form told by its first character) and, with --to, `-o -` standard output.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "cli/file_jobs.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/encode.hpp"
#include "engine/formats/asig_io.hpp"
#include "engine/formats/layout.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/render/render.hpp"

namespace rave::apps {
namespace {

struct ConvertArgs {
  std::vector<std::string> paths;
  std::string to;
  std::string out_dir;
  bool overwrite = false;
};

std::string encode_as(const engine::Problem& problem, const std::filesystem::path& output) {
  const std::string ext = output.extension().string();
  if (ext == ".xml") return engine::write_problem_xml(problem);
  if (ext == ".asig") return engine::write_asig(problem);
  if (!problem.target)
    throw InputError(output.string(), "",
                     "an npz needs the answer index, which the input does not give");
  engine::Problem with_predict = problem;
  if (!with_predict.predict) with_predict.predict = with_predict.target;
  return engine::encode_problem_npz(with_predict, engine::render_problem(with_predict),
                                    /*compress=*/false);
}

constexpr const char* kStandardStream = "-";

engine::Problem read_input(const std::filesystem::path& input) {
  if (input != kStandardStream) return engine::read_problem(input);
  return engine::parse_problem_text(cli::read_standard_input(engine::kMaxProblemFileBytes),
                                    "<stdin>");
}

// `to_stdout`: the output's name only gives the form; the bytes go to standard output.
void convert_one(const cli::FileJob& job, bool refuse_existing, bool to_stdout) {
  std::error_code ec;
  if (refuse_existing && !to_stdout && std::filesystem::exists(job.output, ec))
    throw InputError(job.output.string(), "", "exists already; pass --overwrite to replace it");
  const engine::Problem problem = read_input(job.input);
  const std::string bytes = encode_as(problem, job.output);
  if (to_stdout) {
    if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size() ||
        std::fflush(stdout) != 0)
      throw InputError("<stdout>", "", "cannot write to standard output");
    return;
  }
  write_file_atomic(job.output, std::string_view(bytes));
  std::printf("converted %s -> %s\n", cli::shown(job.input).c_str(),
              cli::shown(job.output).c_str());
}

std::string checked_extension(const std::string& word) {
  std::string ext = word.empty() || word[0] == '.' ? word : "." + word;
  if (ext != ".xml" && ext != ".asig" && ext != ".npz")
    throw UsageError("cannot convert to '" + word + "'; known: xml, asig, npz");
  return ext;
}

// Standard input is one input on its own: `convert - OUT` or `convert --to FORM - -o OUT` (OUT may
// be
// `-`, standard output).
std::vector<cli::FileJob> plan_stdin(const ConvertArgs& args) {
  if (args.paths.size() != (args.to.empty() ? 2 : 1))
    throw UsageError(
        "standard input (-) is one input: convert - OUTPUT, or convert --to FORMAT - -o OUTPUT");
  if (args.to.empty()) return {{kStandardStream, args.paths[1]}};
  if (args.out_dir.empty())
    throw UsageError("convert --to FORMAT - needs -o: a file, or - for standard output");
  const std::string ext = checked_extension(args.to);
  const std::filesystem::path output = args.out_dir == kStandardStream ? "-" + ext : args.out_dir;
  return {{kStandardStream, output}};
}

std::vector<cli::FileJob> plan(const ConvertArgs& args) {
  if (!args.paths.empty() && args.paths[0] == kStandardStream) return plan_stdin(args);
  if (!args.to.empty() && args.out_dir == kStandardStream) {
    const auto files = engine::collect_problem_files({args.paths.begin(), args.paths.end()});
    if (files.size() != 1)
      throw UsageError("-o - (standard output) takes one problem, not " +
                       std::to_string(files.size()));
    return {{files[0], "-" + checked_extension(args.to)}};
  }
  if (!args.to.empty())
    return cli::plan_file_jobs(args.paths, args.out_dir, checked_extension(args.to));
  if (args.paths.size() != 2 || !args.out_dir.empty())
    throw UsageError(
        "convert takes INPUT OUTPUT, or --to FORMAT with any number of inputs (and -o DIR)");
  if (args.paths[1] == kStandardStream)
    throw UsageError("to write to standard output, give the form: convert --to FORMAT INPUT -o -");
  checked_extension(std::filesystem::path(args.paths[1]).extension().string());
  return {{args.paths[0], args.paths[1]}};
}

int run_convert(const ConvertArgs& args) {
  const auto planned = plan(args);
  if (planned.empty()) throw UsageError("no problem files (.xml, .asig) in the given folders");
  const bool refuse_existing = !args.to.empty() && !args.overwrite;
  const bool to_stdout = args.out_dir == kStandardStream;
  return cli::run_file_jobs(planned, "converted", [&](const cli::FileJob& j) {
    convert_one(j, refuse_existing, to_stdout);
  });
}

}  // namespace

Runner add_convert(CLI::App& app) {
  auto args = std::make_shared<ConvertArgs>();
  auto* cmd = app.add_subcommand(
      "convert",
      "Convert problems between RAVEN XML (.xml) and the A-SIG text form (.asig, "
      "docs/asig.md); .npz output renders them. XML -> .asig -> XML is byte-identical.\n"
      "  rave convert A.xml B.asig\n"
      "  rave convert --to asig data/raven -o asig/   # every problem below, same paths\n"
      "  cat p.xml | rave convert --to asig - -o -     # standard input to standard output");
  cmd->add_option("paths", args->paths,
                  "INPUT OUTPUT, or with --to: input files and folders; - is standard input")
      ->required();
  cmd->add_option("--to", args->to, "Output format for many inputs: xml, asig or npz");
  cmd->add_option("-o,--out-dir", args->out_dir,
                  "With --to: folder for the outputs (default: beside each input); for one input a "
                  "file, or - for "
                  "standard output");
  cmd->add_flag("--overwrite", args->overwrite, "With --to: replace outputs that exist already");
  return [args] { return run_convert(*args); };
}

}  // namespace rave::apps
