// `rave show`: a contact sheet PNG of one problem (the N x N matrix above the 8 numbered
// candidates), or with --vlm an image benchmark of a whole set for vision-language models
// (evaluation/export/vlm.hpp).
#include <cstdio>
#include <memory>

#include "apps/commands.hpp"
#include "cli/cli_util.hpp"
#include "cli/export_options.hpp"
#include "common/atomic_file.hpp"
#include "common/error.hpp"
#include "engine/formats/npz.hpp"
#include "engine/formats/png.hpp"
#include "engine/formats/problem_files.hpp"
#include "engine/render/render.hpp"
#include "engine/render/sheet.hpp"
#include "evaluation/export/vlm.hpp"

namespace rave::apps {
namespace {

std::optional<int> shown_answer(const cli::ShowFlags& args, std::optional<int> target) {
  return args.no_answer ? std::nullopt : target;
}

std::string sheet_from_npz(const cli::ShowFlags& args) {
  if (args.style)
    throw UsageError("--style draws symbols (.xml, .asig); an npz's panels are shown as stored");
  const engine::NpzFile file = engine::read_npz(args.input);
  int grid = 0;
  engine::PanelStack images;
  const auto pixels = file.panels(grid, images.side);  // (N*N+7, S, S): any variant and style
  images.pixels.assign(pixels.begin(), pixels.end());
  return engine::encode_gray_png(engine::problem_sheet(
      images, engine::SheetOptions{.answer = shown_answer(args, static_cast<int>(file.target()))}));
}

// .xml or .asig: drawn from the symbols, in their style or --style's.
std::string sheet_from_symbols(const cli::ShowFlags& args) {
  engine::Problem problem = engine::read_problem(args.input);
  if (args.style) problem.style = engine::parse_style(*args.style);
  evaluation::check_drawable(problem, args.input);
  engine::PanelStack images;
  engine::render_problem(problem, images);
  return engine::encode_gray_png(engine::problem_sheet(
      images, engine::SheetOptions{.answer = shown_answer(args, problem.target)}));
}

int run_sheet(const cli::ShowFlags& args) {
  const std::filesystem::path input(args.input), output(args.output);
  if (args.output.empty()) throw UsageError("rave show needs -o SHEET.png (or --vlm FOLDER)");
  if (output.extension() != ".png")
    throw UsageError("-o " + args.output + ": rave show writes PNG; name the output .png");
  if (args.options.panels || args.options.with_answer || args.shuffle_seed)
    throw UsageError("--panels, --with-answer and --answers-shuffled go with --vlm FOLDER");
  std::string png;
  if (input.extension() == ".npz")
    png = sheet_from_npz(args);
  else if (input.extension() == ".xml" || input.extension() == ".asig")
    png = sheet_from_symbols(args);
  else if (std::filesystem::is_directory(input))
    throw UsageError(args.input + " is a folder: rave show draws one problem, or a set with --vlm");
  else
    throw UsageError(args.input + ": expected a .npz, .xml or .asig problem file");
  write_file_atomic(args.output, png);
  std::printf("wrote %s\n", cli::shown(args.output).c_str());
  return 0;
}

int run_vlm(const cli::ShowFlags& args) {
  if (!args.output.empty()) throw UsageError("-o and --vlm: choose one");
  const evaluation::VlmOptions options = cli::vlm_options(args);
  const evaluation::VlmCounts n =
      evaluation::export_vlm(args.input, args.vlm, options, args.threads);
  std::printf("wrote %zu problems (%zu images, %s) to %s\n", n.problems, n.images,
              options.with_answer ? "answers in the JSON lines" : "answer-free",
              cli::shown(std::filesystem::path(args.vlm) / evaluation::kVlmIndex).c_str());
  return 0;
}

}  // namespace

Runner add_show(CLI::App& app) {
  auto args = std::make_shared<cli::ShowFlags>();
  auto* cmd = app.add_subcommand(
      "show",
      "Draw a problem as a PNG sheet: the 3x3 (or N x N) matrix, missing panel marked ?, above "
      "the 8 candidates numbered 0..7, the answer framed when known (unless --no-answer).\n"
      "With --vlm FOLDER, a whole set as an image benchmark for vision-language models: per "
      "problem an answer-free sheet with the candidates labelled 1..8 (and with --panels each "
      "panel), and FOLDER/vlm.jsonl naming the images and the prompts (docs/evaluation.md).");
  cli::bind_show_flags(*cmd, *args);
  return [args] { return args->vlm.empty() ? run_sheet(*args) : run_vlm(*args); };
}

}  // namespace rave::apps
