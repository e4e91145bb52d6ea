// `rave show`: a contact sheet PNG of one problem (the N x N matrix above the 8 numbered
// candidates).
#include <memory>

#include "apps/cli_util.hpp"
#include "apps/commands.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/png.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/render/render.hpp"
#include "engine/render/sheet.hpp"

namespace rave::apps {
namespace {

struct ShowArgs {
  std::string input;
  std::string output;
};

std::string sheet_from_npz(const std::string& path) {
  const engine::NpzFile file = engine::read_npz(path);
  int grid = 0;
  const auto pixels = file.grid_image(grid);  // (N*N+7, 160, 160): an N x N variant's too
  std::vector<engine::Image> images(pixels.size() / static_cast<std::size_t>(engine::kPanelPixels));
  for (std::size_t i = 0; i < images.size(); ++i)
    std::copy_n(pixels.begin() + static_cast<std::ptrdiff_t>(i * images[i].size()),
                images[i].size(), images[i].begin());
  return engine::encode_gray_png(engine::problem_sheet(images, static_cast<int>(file.target())));
}

// .xml or .asig: drawn from the symbols.
std::string sheet_from_symbols(const std::string& path) {
  const engine::Problem problem = engine::read_problem(path);
  const auto images = engine::render_problem(problem);
  return engine::encode_gray_png(engine::problem_sheet(images, problem.target));
}

int run_show(const ShowArgs& args) {
  const std::filesystem::path input(args.input), output(args.output);
  if (output.extension() != ".png")
    throw UsageError("-o " + args.output + ": rave show writes PNG; name the output .png");
  std::string png;
  if (input.extension() == ".npz")
    png = sheet_from_npz(args.input);
  else if (input.extension() == ".xml" || input.extension() == ".asig")
    png = sheet_from_symbols(args.input);
  else
    throw UsageError(args.input + ": expected a .npz, .xml or .asig problem file");
  write_file_atomic(args.output, png);
  std::printf("wrote %s\n", shown(args.output).c_str());
  return 0;
}

}  // namespace

Runner add_show(CLI::App& app) {
  auto args = std::make_shared<ShowArgs>();
  auto* cmd = app.add_subcommand(
      "show",
      "Draw a problem as a PNG sheet: the 3x3 (or N x N) matrix, missing panel marked ?, above "
      "the 8 candidates numbered 0..7, the answer framed when known.");
  cmd->add_option("problem", args->input,
                  "Problem .npz (images as stored), or .xml or .asig (rendered)")
      ->required();
  cmd->add_option("-o,--output", args->output, "Output .png")->required();
  return [args] { return run_show(*args); };
}

}  // namespace rave::apps
